/**
 * Planning which rollouts to dispatch. A fresh run dispatches every materialized
 * row; `--resume` skips `(task, rollout)` pairs that already succeeded, that are marked
 * `_ng_failure_terminal`, or that used up their attempts, counted from the failures sidecar.
 * @module
 */
import { rolloutKey } from './types.js';
import type { JsonObject, MaterializedRow, RolloutKey } from './types.js';

/** Default of `NEMO_GYM_MAX_ROLLOUT_ATTEMPTS`. */
export const DEFAULT_MAX_ROLLOUT_ATTEMPTS = 3;

/** `NEMO_GYM_MAX_ROLLOUT_ATTEMPTS` as a positive integer; the default when unset or invalid. */
export function maxRolloutAttempts(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env['NEMO_GYM_MAX_ROLLOUT_ATTEMPTS'];
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : DEFAULT_MAX_ROLLOUT_ATTEMPTS;
}

/** What is known about each pair from earlier runs. */
export interface RolloutHistory {
  succeeded: Set<RolloutKey>;
  /** Failed attempts per pair, from the sidecar. */
  attempts: Map<RolloutKey, number>;
  terminal: Set<RolloutKey>;
}

/** Builds the history from the rows of the output file and of the failures sidecar. */
export function rolloutHistory(outputRows: readonly JsonObject[], failureRows: readonly JsonObject[]): RolloutHistory {
  const succeeded = new Set<RolloutKey>();
  for (const row of outputRows) {
    const key = rolloutKey(row);
    if (key !== undefined) succeeded.add(key);
  }
  const attempts = new Map<RolloutKey, number>();
  const terminal = new Set<RolloutKey>();
  for (const row of failureRows) {
    const key = rolloutKey(row);
    if (key === undefined) continue;
    attempts.set(key, (attempts.get(key) ?? 0) + 1);
    if (row['_ng_failure_terminal'] === true) terminal.add(key);
  }
  return { succeeded, attempts, terminal };
}

/** The dispatch plan. */
export interface RolloutPlan {
  /** Rows to run now; retries carry `_ng_attempt_index` (the number of earlier failed attempts). */
  pending: MaterializedRow[];
  succeeded: number;
  terminal: number;
  /** Pairs that reached the attempt limit and are not retried. */
  exhausted: number;
}

/** Splits `rows` into pending and skipped pairs given `history` (empty for a fresh run). */
export function planRollouts(rows: readonly MaterializedRow[], history: RolloutHistory, maxAttempts: number): RolloutPlan {
  const plan: RolloutPlan = { pending: [], succeeded: 0, terminal: 0, exhausted: 0 };
  for (const row of rows) {
    const key = rolloutKey(row) as RolloutKey;
    if (history.succeeded.has(key)) plan.succeeded++;
    else if (history.terminal.has(key)) plan.terminal++;
    else {
      const attempts = history.attempts.get(key) ?? 0;
      if (attempts >= maxAttempts) plan.exhausted++;
      else plan.pending.push(attempts > 0 ? { ...row, _ng_attempt_index: attempts } : row);
    }
  }
  return plan;
}
