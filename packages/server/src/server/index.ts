/**
 * The server base of gym: one ingress (`createServerApp`) and builders for the three server kinds.
 * @module
 */
export { createServerApp, DEFAULT_BODY_LIMIT_BYTES, DEFAULT_SERVER_KEEP_ALIVE_TIMEOUT_MS } from './app.js';
export type { GymServerState, ServerAppOptions } from './app.js';
export { addJsonRoute } from './json-route.js';
export type { JsonRoute, RouteContext, RouteHandler } from './json-route.js';
export { defineResourcesServer, SEED_SESSION_REQUEST, VERIFY_REQUEST } from './resources-server.js';
export type { ResourcesServerDefinition, ResourcesServerSpec, VerifyResult } from './resources-server.js';
export { defineModelServer, MODEL_REQUEST } from './model-server.js';
export type { ModelServerDefinition, ModelServerSpec } from './model-server.js';
export { defineAgentServer, RUN_REQUEST } from './agent-server.js';
export { CHAT_COMPLETIONS_REQUEST, RESPONSES_INPUT_ITEM, RESPONSES_REQUEST, RESPONSES_REQUEST_FIELDS, RESPONSES_TOOL } from './responses-request.js';
export { checkJsonShape, MAX_JSON_DEPTH, parseJsonBody } from './json-body.js';
export type { JsonShapeProblem } from './json-body.js';
export type { AgentServerDefinition, AgentServerSpec } from './agent-server.js';
export { AGGREGATE_METRICS_REQUEST } from './endpoint.js';
export type { AggregateMetricsResult, BuildOptions, EndpointSpec, ServerDefinition } from './endpoint.js';
export { internalErrorBody, sendJson } from './error-reply.js';
export { DEFAULT_LISTEN_BACKLOG, installShutdownHandlers, listen } from './lifecycle.js';
export type { ListenOptions, ListeningAddress, ShutdownOptions } from './lifecycle.js';
export type { InstrumentedRoute, RouteInstrumentation, ServerInstrumentation } from './instrumentation.js';
export { signSessionId, verifySessionCookie } from './session.js';
export type { GymSession, SessionConfig } from './session.js';
export { stripRolloutPrefix } from './rollout-prefix.js';
export { toValidationDetail } from './validation.js';
export type { ValidationDetail } from './validation.js';
