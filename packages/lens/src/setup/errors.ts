/**
 * Errors thrown while configuring or setting up telemetry. Instrumentation itself never throws;
 * only the explicit setup entry points do, and only for problems the caller must fix.
 * @module
 */

/** Base class of lens errors: a stable `code`, `name` set to the concrete class, optional `cause`. */
export class LensError extends Error {
  /** Stable machine-readable code, `LENS_<AREA>_<PROBLEM>`. */
  readonly code: string;

  constructor(code: LensErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** Error codes of the setup half of lens, one row each (the docs section explaining it, `<page>.md#<section>` under docs/); never reused once released. */
export const LENS_ERROR_TABLE = {
  /** An environment variable or config field holds a value lens cannot parse. */
  LENS_CONFIG_INVALID_VALUE: { docs: 'lens-setup.md#configuration' },
  /** `setupTelemetry` was called a second time with telemetry enabled. */
  LENS_SETUP_ALREADY_INITIALISED: { docs: 'lens-setup.md#setuptelemetryconfig-options' },
} as const satisfies Record<string, { docs: string }>;

/** A code of {@link LENS_ERROR_TABLE}. */
export type LensErrorCode = keyof typeof LENS_ERROR_TABLE;

/** Short names of the codes, for raise sites and callers switching on `err.code`. */
export const LENS_ERRORS = {
  CONFIG_INVALID_VALUE: 'LENS_CONFIG_INVALID_VALUE',
  SETUP_ALREADY_INITIALISED: 'LENS_SETUP_ALREADY_INITIALISED',
} as const satisfies Record<string, LensErrorCode>;

/** A configuration value (env var or field) is invalid. The message names it and the valid values. */
export class LensConfigError extends LensError {
  /** The variable or field the bad value came from, e.g. `NEMO_GYM_OTEL_ENABLED`. */
  readonly variable: string;
  /** The rejected value. */
  readonly value: string;

  constructor(variable: string, value: string, accepted: readonly string[], options?: { cause?: unknown }) {
    super(LENS_ERRORS.CONFIG_INVALID_VALUE, `Invalid value '${value}' for ${variable}. Accepted values: ${accepted.join(', ')}.`, options);
    this.variable = variable;
    this.value = value;
  }
}

/** `setupTelemetry` cannot proceed (e.g. it already ran in this process). */
export class LensSetupError extends LensError {}
