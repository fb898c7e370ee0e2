/**
 * Errors of rollout collection (`gym eval run`, `gym eval aggregate`), from their rows of the
 * runtime's table (error-codes.ts). Codes are `GYM_ROLLOUT_*` and are catalogued, with the
 * failure-row codes and warnings, in `docs/errors-rollouts.md`.
 * @module
 */
import { gymErrorClass, gymMessage } from '@gym/server/internal/error-class.js';
import type { GymErrorCodeOf } from '@gym/server/internal/error-codes.js';
import { GymUserError } from '@gym/server/internal/errors.js';
import type { GymErrorOptions } from '@gym/server/internal/errors.js';

/** The input JSONL or a dataset is missing, unreadable, or (with `--strict-input`) has malformed lines; or the prompt config cannot be used. */
export class RolloutInputError extends GymUserError {
  constructor(
    code: Extract<GymErrorCodeOf<'user'>, 'GYM_ROLLOUT_INPUT_NOT_FOUND' | 'GYM_ROLLOUT_INPUT_MALFORMED' | 'GYM_ROLLOUT_NO_INPUT' | 'GYM_ROLLOUT_NO_AGENT_REF' | 'GYM_ROLLOUT_PROMPT_CONFIG'>,
    message: string,
    options?: GymErrorOptions,
  ) {
    super(code, message, options);
  }
}

/** `--agent` names no agent instance, or none was given and the choice is ambiguous. */
export class RolloutAgentError extends GymUserError {
  constructor(code: Extract<GymErrorCodeOf<'user'>, 'GYM_ROLLOUT_AGENT_UNKNOWN' | 'GYM_ROLLOUT_AGENT_AMBIGUOUS'>, message: string, options?: GymErrorOptions) {
    super(code, message, options);
  }
}

/** A collection flag has an invalid value (e.g. `--concurrency 0`). */
export class RolloutFlagError extends gymErrorClass('GYM_ROLLOUT_BAD_FLAG') {}

/** A file of the run (`-o`, its sidecars, its metrics) cannot be opened or written: a full disk, no permission. */
export class RolloutOutputError extends gymErrorClass('GYM_ROLLOUT_OUTPUT_WRITE') {}

/** `gym eval aggregate` found no shard files. */
export class RolloutShardsNotFoundError extends gymErrorClass('GYM_ROLLOUT_NO_SHARDS') {
  constructor(patterns: readonly string[]) {
    super(gymMessage('GYM_ROLLOUT_NO_SHARDS', patterns.map((p) => `'${p}'`).join(', ')));
  }
}

/** Codes written into `error.code` of failure-sidecar rows (not thrown). */
export const FAILURE_CODES = Object.freeze({
  /** `/run` answered non-2xx. */
  runStatus: 'GYM_ROLLOUT_RUN_STATUS',
  /** `/run` answered a result carrying `_ng_failure_class`. */
  failureClass: 'GYM_ROLLOUT_FAILURE_CLASS',
  /** `/run` answered 2xx with a body that is not a JSON object. */
  badResult: 'GYM_ROLLOUT_BAD_RESULT',
  /** `/run` failed in the transport, with no more specific code. */
  runError: 'GYM_ROLLOUT_RUN_ERROR',
  /** An input line was skipped: not JSON, not a task row, too deep or with a `__proto__` key. */
  inputLine: 'GYM_ROLLOUT_INPUT_LINE',
});

/** Warning codes printed by the collector. */
export const ROLLOUT_WARNINGS = Object.freeze({
  /** Malformed input lines were skipped. */
  malformedInput: 'GYM_ROLLOUT_W001',
  /** `<agent>/aggregate_metrics` failed; local metrics kept. */
  aggregateCallFailed: 'GYM_ROLLOUT_W002',
  /** Unparsable lines in an output or sidecar file were ignored (e.g. a torn last line). */
  malformedOutput: 'GYM_ROLLOUT_W003',
  /** Records could not be appended to a run file (a full disk); their rollouts run again with `--resume`. */
  unwritten: 'GYM_ROLLOUT_W004',
  /** A row's `template_metadata.output_regex` cannot be run with Python's semantics. */
  untranslatableOutputRegex: 'GYM_ROLLOUT_W005',
});
