/**
 * Error classes of `@gym/trace`. Same shape as the runtime's `GymError` (stable `code`,
 * `name = new.target.name`, `{ cause }`) without importing it: `@gym/trace` depends on nothing of ours.
 * Codes are `GYM_TRACE_<PROBLEM>`, listed in docs/trace.md.
 * @module
 */

/** Stable codes thrown by `@gym/trace`. */
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
} as const;

/** Base class of trace errors. */
export class TraceError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }
}

/** Bad input from the user (paths, ids, flags): the commands print the message and exit 2. */
export class TraceUserError extends TraceError {
  /** Exit code a CLI should use; matches the runtime's handling of `GymUserError`. */
  readonly exitCode = 2;
}
