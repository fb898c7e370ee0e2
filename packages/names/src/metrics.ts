/**
 * Metric names and units gym records, with the original NeMo Gym's names (docs/compatibility.md,
 * "Commands, HTTP routes and telemetry names"); `gym trace` reads the memory ones back for its saturation view.
 * @module
 */
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
  SERVER_MEMORY_USAGE: 'gym.server.memory.usage',
  SERVER_MEMORY_SAMPLED_PEAK: 'gym.server.memory.sampled_peak',
  SERVER_PROCESSES: 'gym.server.processes',
  HOST_MEMORY_USAGE: 'gym.host.memory.usage',
  HOST_MEMORY_AVAILABLE: 'gym.host.memory.available',
  HOST_MEMORY_TOTAL: 'gym.host.memory.total',
  HOST_MEMORY_SAMPLED_PEAK: 'gym.host.memory.sampled_peak',
} as const;

/** UCUM units, as the OpenTelemetry conventions write them. */
export const UNIT = {
  MILLISECONDS: 'ms',
  SECONDS: 's',
  BYTES: 'By',
  COUNT: '1',
  PROCESSES: '{process}',
} as const;

/** The instrumentation scope gym's spans and metrics are recorded under. */
export const GYM_SCOPE = 'nemo.gym';
