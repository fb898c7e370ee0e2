/**
 * Error codes and classes of `@gym/trace`. Same shape as the runtime's `GymError` (stable `code`,
 * `name = new.target.name`, `{ cause }`) without importing it: `@gym/trace` depends on no other gym
 * package but the naming contract. Codes are `GYM_TRACE_<PROBLEM>`, one row each in
 * {@link TRACE_ERRORS} (exit code, docs section), listed in docs/trace.md.
 * @module
 */
import { constants } from 'node:os';

const ERRORS_SECTION = 'trace.md#progress-exit-codes-errors';

/** One row per code: the exit code a command leaves with and the docs section explaining it (`<page>.md#<section>` under docs/). */
export const TRACE_ERRORS = {
  GYM_TRACE_PATH_NOT_FOUND: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_NO_PATHS: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_NO_SPANS: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_ROLLOUT_NOT_FOUND: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_TRACE_NOT_FOUND: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_AMBIGUOUS_TRACE: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_BAD_OPTION: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_SQL_ERROR: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_PUSH_FAILED: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_PUSH_NOT_OTLP: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_PUSH_REJECTED: { exitCode: 2, docs: ERRORS_SECTION },
  GYM_TRACE_OUT_OF_MEMORY: { exitCode: 2, docs: ERRORS_SECTION },
} as const satisfies Record<string, { exitCode: number; docs: string }>;

/** A code of {@link TRACE_ERRORS}. */
export type TraceErrorCode = keyof typeof TRACE_ERRORS;

/** Short names of the codes, for raise sites. */
export const TRACE_ERROR_CODES = {
  pathNotFound: 'GYM_TRACE_PATH_NOT_FOUND',
  noPaths: 'GYM_TRACE_NO_PATHS',
  noSpans: 'GYM_TRACE_NO_SPANS',
  rolloutNotFound: 'GYM_TRACE_ROLLOUT_NOT_FOUND',
  traceNotFound: 'GYM_TRACE_TRACE_NOT_FOUND',
  ambiguousTrace: 'GYM_TRACE_AMBIGUOUS_TRACE',
  badOption: 'GYM_TRACE_BAD_OPTION',
  sqlError: 'GYM_TRACE_SQL_ERROR',
  pushFailed: 'GYM_TRACE_PUSH_FAILED',
  pushNotOtlp: 'GYM_TRACE_PUSH_NOT_OTLP',
  pushRejected: 'GYM_TRACE_PUSH_REJECTED',
  outOfMemory: 'GYM_TRACE_OUT_OF_MEMORY',
} as const satisfies Record<string, TraceErrorCode>;

/** Base class of trace errors. */
export class TraceError extends Error {
  readonly code: string;

  constructor(code: TraceErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }
}

/** Bad input from the user (paths, ids, flags): the commands print the message and exit 2. */
export class TraceUserError extends TraceError {
  /** Exit code a CLI should use (its row's; 2, as the runtime's `GymUserError`). */
  get exitCode(): number {
    return TRACE_ERRORS[this.code as TraceErrorCode].exitCode;
  }
}

/** A conversion of the store stopped by a signal (Ctrl-C): `runCommand` ends the command with its exit code. */
export class ConversionStopped extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`the conversion was stopped by ${signal}`);
  }

  /** What the user is told once the cleanup is done. */
  get notice(): string {
    return `gym trace: ${this.signal === 'SIGINT' ? 'interrupted' : `stopped by ${this.signal}`}; the trace store keeps what was finished`;
  }

  /** What a shell reports for a process ended by the signal. */
  get exitCode(): number {
    return 128 + constants.signals[this.signal];
  }
}
