/**
 * Looks up a rollout or a trace by id, with "did you mean" suggestions when it is not found.
 * @module
 */
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import type { Rollout } from './rollouts.js';
import type { Trace, TraceSet } from './trace-model.js';

/** A rollout id as the collector makes them: `<task index>-<rollout index>`. */
const ROLLOUT_ID = /^(\d+)-(\d+)$/;

/**
 * True when `id` falls in a gap of the rollouts read (a later rollout of the same task has spans):
 * what a run that sampled its traces looks like (docs/observability/at-scale.md), not a typo.
 */
function skippedBySampling(id: string, rollouts: readonly Rollout[]): boolean {
  const wanted = ROLLOUT_ID.exec(id);
  if (wanted === null) return false;
  return rollouts.some((r) => {
    const seen = ROLLOUT_ID.exec(r.rolloutId ?? '');
    return seen !== null && seen[1] === wanted[1] && Number(seen[2]) > Number(wanted[2]);
  });
}

/** What `id` resolved to: one rollout, or a trace with no (or several) rollouts. */
export type LookupResult = { type: 'rollout'; rollout: Rollout } | { type: 'trace'; trace: Trace; rollouts: Rollout[] };

/**
 * Resolves `id` as a rollout id, then as a trace id (full or a unique prefix of at least 6 hex
 * digits). A trace holding exactly one rollout resolves to that rollout.
 * @throws TraceUserError `GYM_TRACE_ROLLOUT_NOT_FOUND` with the closest ids listed.
 */
export function lookupId(set: TraceSet, rollouts: readonly Rollout[], id: string): LookupResult {
  const byRollout = rollouts.filter((r) => r.rolloutId === id);
  if (byRollout.length === 1) return { type: 'rollout', rollout: byRollout[0]! };
  if (byRollout.length > 1) {
    // The same rollout id in several traces (e.g. two runs in one log dir): the latest wins.
    return { type: 'rollout', rollout: byRollout[byRollout.length - 1]! };
  }
  const trace = matchTrace(set, id);
  if (trace !== null) {
    const inTrace = rollouts.filter((r) => r.traceId === trace.traceId);
    if (inTrace.length === 1) return { type: 'rollout', rollout: inTrace[0]! };
    return { type: 'trace', trace, rollouts: inTrace };
  }
  const candidates = [...rollouts.map((r) => r.rolloutId), ...set.traces.keys()];
  const sampled = skippedBySampling(id, rollouts) ? ' A rollout of a run that sampled its traces (OTEL_TRACES_SAMPLER) may have left no spans.' : '';
  throw new TraceUserError(TRACE_ERROR_CODES.rolloutNotFound, `No rollout or trace with id '${id}' in the input.${sampled}${suggestion(id, candidates)}`);
}

/**
 * Finds a trace by full id or unique prefix (≥ 6 characters).
 * @throws TraceUserError `GYM_TRACE_TRACE_NOT_FOUND` with the closest ids listed.
 */
export function findTrace(set: TraceSet, id: string): Trace {
  const t = matchTrace(set, id);
  if (t !== null) return t;
  throw new TraceUserError(TRACE_ERROR_CODES.traceNotFound, `No trace with id '${id}' in the input.${suggestion(id, [...set.traces.keys()])}`);
}

function matchTrace(set: TraceSet, id: string): Trace | null {
  const norm = id.toLowerCase().replace(/^0x/, '');
  const exact = set.traces.get(norm);
  if (exact !== undefined) return exact;
  if (norm.length < 6) return null;
  let found: Trace | null = null;
  for (const [tid, t] of set.traces) {
    if (!tid.startsWith(norm)) continue;
    if (found !== null) return null;
    found = t;
  }
  return found;
}

function suggestion(id: string, candidates: readonly string[]): string {
  const close = closestIds(id, candidates, 5);
  if (close.length === 0) return candidates.length === 0 ? ' The input holds no rollouts or traces.' : '';
  return ` Closest ids: ${close.join(', ')}.`;
}

/** Up to `n` candidates closest to `id`: shared prefix first, then edit distance. */
export function closestIds(id: string, candidates: readonly string[], n: number): string[] {
  const scored = [...new Set(candidates)].map((c) => ({ c, d: distance(id, c) - 2 * commonPrefix(id, c) }));
  scored.sort((a, b) => a.d - b.d || (a.c < b.c ? -1 : 1));
  return scored.slice(0, n).map((s) => s.c);
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

// Levenshtein over the first 64 characters (ids are short; this bounds the cost).
function distance(a0: string, b0: string): number {
  const a = a0.slice(0, 64);
  const b = b0.slice(0, 64);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
