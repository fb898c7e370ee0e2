/**
 * Attribute keys gym writes on spans, metrics and resources, and `gym trace` reads back. Kept
 * identical to the original NeMo Gym's, so dashboards and queries carry over (docs/compatibility.md,
 * "Commands, HTTP routes and telemetry names"). Incubating semantic-convention names (`gen_ai.*`)
 * are copied here, not imported, so a convention package upgrade cannot rename what we write.
 * @module
 */
export const ATTR = {
  // gym's own
  ROLLOUT_ID: 'nemo.gym.rollout.id',
  SERVER_NAME: 'nemo.gym.server.name',
  SERVER_TYPE: 'nemo.gym.server.type',
  SERVICE_GROUP: 'nemo.gym.service_group',
  GYM_VERSION: 'nemo.gym.version',
  VERIFY_REWARD: 'gym.verify.reward',
  ROLLOUT_OUTCOME: 'nemo.gym.rollout.outcome',
  MODEL_DIALECT: 'nemo.gym.model.dialect',
  RETRY_REASON: 'nemo.gym.http.retry_reason',
  /** On the first span of each rollout's trace (the collector's call): the run it belongs to. */
  ROLLOUT_RUN_ID: 'gym.run.id',
  // lens: the run, and spans force-closed at shutdown
  RUN_ID: 'nemo.run.id',
  TRUNCATED: 'nemo.span.truncated',
  TRUNCATED_REASON: 'nemo.span.truncated.reason',
  // the phases of a CLIENT span, offsets from its start in ms (docs/trace.md, "Client phases")
  HTTP_PHASE_QUEUED_MS: 'gym.http.phase.queued_ms',
  HTTP_PHASE_CONNECT_MS: 'gym.http.phase.connect_ms',
  HTTP_CONNECTION_REUSED: 'gym.http.connection.reused',
  HTTP_PHASE_SENT_AT_MS: 'gym.http.phase.sent_at_ms',
  HTTP_PHASE_HEADERS_AT_MS: 'gym.http.phase.headers_at_ms',
  HTTP_PHASE_DONE_AT_MS: 'gym.http.phase.done_at_ms',
  // OpenTelemetry semantic conventions
  SERVICE_NAME: 'service.name',
  PROCESS_PID: 'process.pid',
  MEMORY_TYPE: 'memory.type',
  HTTP_METHOD: 'http.request.method',
  HTTP_ROUTE: 'http.route',
  HTTP_STATUS: 'http.response.status_code',
  URL_FULL: 'url.full',
  URL_PATH: 'url.path',
  SERVER_ADDRESS: 'server.address',
  SERVER_PORT: 'server.port',
  ERROR_TYPE: 'error.type',
  RESEND_COUNT: 'http.request.resend_count',
  GEN_AI_OPERATION: 'gen_ai.operation.name',
  GEN_AI_REQUEST_MODEL: 'gen_ai.request.model',
  GEN_AI_RESPONSE_MODEL: 'gen_ai.response.model',
  GEN_AI_RESPONSE_ID: 'gen_ai.response.id',
  GEN_AI_INPUT_TOKENS: 'gen_ai.usage.input_tokens',
  GEN_AI_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens',
  GEN_AI_FINISH_REASONS: 'gen_ai.response.finish_reasons',
} as const;

/** One of the attribute keys above. */
export type AttributeKey = (typeof ATTR)[keyof typeof ATTR];
