/**
 * Span and event names with a fixed meaning: the writer starts spans by these names, `gym trace`
 * finds rollouts, verifications and model calls by them.
 * @module
 */
export const SPAN = {
  /** The CLI's whole `gym eval run` / `gym env start`. */
  JOB: 'gym.job',
  /** One rollout: the agent's `/run`. */
  ROLLOUT: 'gym.rollout',
  /** The agent's `/v1/responses`. */
  AGENT_RESPONSES: 'gym.agent.responses',
  /** One `/verify` on a resources server. */
  VERIFY: 'gym.verify',
  /** Spans of a model server's own work start with this. */
  MODEL_PREFIX: 'gym.model.',
  /** The orchestrator starting the servers, and one server within it. */
  STARTUP: 'gym.startup',
  STARTUP_SERVER: 'gym.startup.server',
} as const;

/** Span event names. */
export const SPAN_EVENT = {
  /** A retried attempt of the gym HTTP client. */
  HTTP_RETRY: 'gym.http.retry',
  /** The span was still open at shutdown and was ended by lens (carries `nemo.span.truncated.reason`). */
  TRUNCATED: 'nemo.span.truncated',
} as const;
