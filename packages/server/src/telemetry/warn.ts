/**
 * Coded runtime warnings about telemetry: reported once through `process.emitWarning` (type
 * `GymWarning`), never thrown — telemetry never stops a server from serving.
 * @module
 */

export const GYM_TELEMETRY_WARNINGS = {
  /** Telemetry is enabled but @gym/lens (or the OpenTelemetry SDK) is not installed. */
  LENS_MISSING: 'GYM_W001',
  /** The telemetry environment is invalid; the process runs without telemetry. */
  INVALID_ENV: 'GYM_W002',
  /** Telemetry setup failed; the process runs without telemetry. */
  SETUP_FAILED: 'GYM_W003',
  /** Another library set telemetry up first; gym reuses its providers and span groups. */
  REUSED_PROVIDERS: 'GYM_W004',
  /** A server's call or span started outside any request's scope while requests were in flight (a scope not passed on after an `await`). */
  DETACHED_SCOPE: 'GYM_W005',
} as const;

/** Emits one coded warning. Never throws. */
export function gymWarn(code: string, message: string): void {
  try {
    process.emitWarning(message, { type: 'GymWarning', code });
  } catch {
    // a warning must never become a failure
  }
}
