/**
 * Attribute and metric names gym emits: kept identical to the original's so dashboards carry over
 * (nemo-gym-observability.md §2.5, §4.2, §6). Incubating GenAI names are copied here, not imported.
 * @module
 */

export const ATTR = {
  ROLLOUT_ID: 'nemo.gym.rollout.id',
  SERVER_NAME: 'nemo.gym.server.name',
  SERVER_TYPE: 'nemo.gym.server.type',
  SERVICE_GROUP: 'nemo.gym.service_group',
  GYM_VERSION: 'nemo.gym.version',
  VERIFY_REWARD: 'gym.verify.reward',
  ROLLOUT_OUTCOME: 'nemo.gym.rollout.outcome',
  MODEL_DIALECT: 'nemo.gym.model.dialect',
  RETRY_REASON: 'nemo.gym.http.retry_reason',
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

export const METRIC = {
  ROLLOUT_DURATION: 'gym.rollout.duration_ms',
  ROLLOUT_COMPLETED: 'gym.rollout.completed_total',
  VERIFY_DURATION: 'gym.verify.duration_ms',
  VERIFY_SUCCESS_RATE: 'gym.verify.success_rate',
  SERVERS_ACTIVE: 'gym.servers.active',
  SERVER_STARTUP_DURATION: 'gym.server.startup_duration_ms',
  HTTP_SERVER_DURATION: 'http.server.request.duration',
  MODEL_CALL_DURATION: 'gym.model.call_duration_ms',
  HTTP_RETRY_TOTAL: 'gym.http.retry_total',
} as const;

// Bucket boundaries are the original's, so dashboards built on its metrics (Prometheus `le` labels
// included) read ours. The `gym.*` durations it declares without buckets get the SDK's defaults.

/** `http.server.request.duration`: the semantic conventions' advice, as the original's instrumentor. */
export const HTTP_DURATION_S_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** `gym.server.startup_duration_ms`: a start can take an hour on a cold cluster. */
export const STARTUP_MS_BUCKETS = [100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 120000, 300000, 600000, 1800000, 3600000];

/** The response header that carries a request's trace (W3C Trace Context Level 2 `traceresponse`). */
export const TRACE_RESPONSE_HEADER = 'traceresponse';
