/**
 * @gym/server — what a server implementation imports: the three server kinds, the HTTP client,
 * config, the protocol's types and schemas, the upstream model client and the telemetry hooks.
 * The orchestrator, rollout collection and the `gym` CLI are `@gym/runtime`.
 * @module
 */
export { ExitError, GymError, GymInternalError, GymUpstreamError, GymUserError } from './errors.js';
export type { GymErrorOptions } from './errors.js';
export { GYM_ERRORS } from './error-codes.js';
export type { ErrorKind, ErrorSpec, GymErrorCode } from './error-codes.js';
export { loadConfig, redactSecrets, dumpConfigYaml } from './config/index.js';
export type { ConfigMap, LoadConfigOptions, ResolvedConfig, ServerInstanceConfig, ServerRef, ServerType } from './config/index.js';
export { createHttpClient, GymHttpRequestError, GymHttpStatusError } from './http/index.js';
export type { HttpClient, HttpClientOptions, HttpRequestOptions, HttpResponse, CookieMap, TraceScope } from './http/index.js';
export { addJsonRoute, createServerApp, defineAgentServer, defineModelServer, defineResourcesServer, installShutdownHandlers, listen, RESPONSES_REQUEST_FIELDS } from './server/index.js';
export type { AgentServerDefinition, ModelServerDefinition, ResourcesServerDefinition, RouteContext, ServerDefinition, VerifyResult } from './server/index.js';
export {
  configBool,
  configHeaders,
  configObject,
  configPositiveInt,
  isHttpStatusError,
  OpenAIUpstream,
  parseModelConfig,
  PROPAGATION_FIELDS,
  redactError,
  redactText,
  upstreamPropagation,
} from './upstream/index.js';
export type { HttpStatusErrorLike, OpenAIUpstreamOptions, UpstreamCallOptions } from './upstream/index.js';
export { CHAT_COMPLETION_CREATE_PARAMS, MODEL_RESPONSES_PARAMS } from './protocol/model-requests.js';
export type { ChatCompletionCreateParams, ModelResponsesParams } from './protocol/model-requests.js';
export { createServerContext, instanceUrl } from './server-process/server-context.js';
export type { ServerContext, ServerFactory } from './server-process/server-context.js';
export { computeVerifyMetrics } from './reward-stats/verify-metrics.js';
export type { VerifyMetrics, VerifyMetricsHooks } from './reward-stats/verify-metrics.js';
export { quickSafeParse, RESPONSES_RESULT, TASK_ROW, VERIFY_REQUEST, VERIFY_RESPONSE } from './protocol/index.js';
export type {
  AgentRef,
  GymInputItem,
  GymOutputItem,
  ResponsesCreateParams,
  ResponsesResult,
  ServerConfigSchema,
  TaskRow,
  TrainingFields,
  TrajectoryItem,
  VerifyRequest,
  VerifyResponse,
} from './protocol/index.js';
export { gymSpan, isGymSpanGroupEnabled } from './telemetry/gym-span.js';
export type { GymSpan, GymSpanOptions } from './telemetry/gym-span.js';
export { GYM_PRESETS, GYM_SPAN_GROUPS } from './telemetry/gates.js';
export type { GymSpanGroup } from './telemetry/gates.js';
export { MODEL_CALL_ID_HEADER, readEvidenceSettings, rolloutIdOfRow, rolloutUrlPrefix } from './evidence/index.js';
export type { AgentObservationBundle, EvidenceSettings, ModelCallRef, ToolCallObservation, TrajectoryTurn } from './evidence/index.js';
