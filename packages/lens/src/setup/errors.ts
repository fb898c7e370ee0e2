/**
 * Errors thrown while configuring or setting up telemetry. Instrumentation itself never throws;
 * only the explicit setup entry points do, and only for problems the caller must fix.
 * @module
 */

/** Base class of lens errors: a stable `code`, `name` set to the concrete class, optional `cause`. */
export class LensError extends Error {
  /** Stable machine-readable code, `LENS_<AREA>_<PROBLEM>`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** Error codes of the setup half of lens; never reused once released. */
export const LENS_ERRORS = {
  /** An environment variable or config field holds a value lens cannot parse. */
  CONFIG_INVALID_VALUE: 'LENS_CONFIG_INVALID_VALUE',
  /** `setupTelemetry` was called a second time with telemetry enabled. */
  SETUP_ALREADY_INITIALISED: 'LENS_SETUP_ALREADY_INITIALISED',
} as const;

/** A configuration value (env var or field) is invalid. The message names it and the valid values. */
export class LensConfigError extends LensError {
  /** The variable or field the bad value came from, e.g. `NEMO_GYM_OTEL_ENABLED`. */
  readonly variable: string;
  /** The rejected value. */
  readonly value: string;

  constructor(variable: string, value: string, accepted: readonly string[], options?: { cause?: unknown }) {
    super(
      LENS_ERRORS.CONFIG_INVALID_VALUE,
      `Invalid value '${value}' for ${variable}. Accepted values: ${accepted.join(', ')}.`,
      options,
    );
    this.variable = variable;
    this.value = value;
  }
}

/** `setupTelemetry` cannot proceed (e.g. it already ran in this process). */
export class LensSetupError extends LensError {}
