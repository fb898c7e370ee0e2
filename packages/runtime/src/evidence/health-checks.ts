/**
 * Rollout health checks over `ng_trajectory` (never the capture files): findings per rollout and
 * a verdict — `unhealthy` (any finding) over `unobserved` (some check lacked the evidence it
 * needs) over `healthy`. Model calls count only when an agent reference bound them to an
 * invocation. Gaps decide what is unobserved: no turns → turn checks; capture unavailable →
 * call checks; reference mismatches are themselves a finding.
 * @module
 */
import type { ObservationGap, TrajectoryModelCall, TrajectoryRecord } from '@gym/server/internal/evidence/observations.js';

type Row = Record<string, unknown>;

/** One thing wrong with a rollout. */
export interface HealthFinding {
  check: string;
  /** Where: `model_call:<id>`, `turn:<invocation>#<n>`, `rollout`. */
  locator: string;
  detail: string;
}

/** The verdict of one rollout (a line of `rollout_verdicts.jsonl`). */
export interface RolloutVerdict {
  rollout_id: string;
  task_id: string | null;
  verdict: 'healthy' | 'unhealthy' | 'unobserved';
  findings: HealthFinding[];
  unobserved: string[];
  /** Why evidence is missing when the cause is known (a capture disk that filled). */
  unobserved_cause?: string;
}

/** The per-rollout checks, in report order. */
export const ROLLOUT_CHECKS = [
  'check_execution_error',
  'record_unreadable',
  'rollout_duplicate_identity',
  'rollout_missing_agent_turns',
  'rollout_ended_on_failed_model_call',
  'rollout_token_count_mismatch',
  'agent_turn_hollow',
  'trajectory_capture_mismatch',
  'model_call_failed',
  'model_call_missing_token_counts',
  'model_call_runaway_generation',
  'model_call_zero_completion_tokens',
] as const;

/** Task-level flags. */
export const TASK_CHECKS = ['task_consistently_unhealthy', 'task_no_successful_model_calls'] as const;

const MISMATCH_GAPS = new Set(['model_call_reference_unmatched', 'model_call_reference_ambiguous', 'model_call_reference_conflict']);
const CAPTURE_UNAVAILABLE_GAPS = new Set([
  'model_calls_unavailable',
  'model_call_capture_unreadable',
  'model_call_capture_records_unreadable',
  'model_call_capture_incomplete',
  'model_call_capture_write_failed',
]);
/** A capture write that failed (a full disk): the trajectory's references to it cannot match. */
const CAPTURE_LOST = 'model_call_capture_write_failed';
const TURN_CHECKS = new Set(['rollout_missing_agent_turns', 'agent_turn_hollow']);
const CALL_CHECKS = new Set([
  'rollout_ended_on_failed_model_call',
  'rollout_token_count_mismatch',
  'model_call_failed',
  'model_call_missing_token_counts',
  'model_call_runaway_generation',
  'model_call_zero_completion_tokens',
]);
const RUNAWAY = new Set(['length', 'max_output_tokens', 'max_tokens']);

/** What a check found: findings, or `unobserved` when the evidence it needs is missing. */
type CheckResult = HealthFinding[] | 'unobserved';
type Check = (t: TrajectoryRecord, row: Row, bound: TrajectoryModelCall[]) => CheckResult;

const callLocator = (c: TrajectoryModelCall) => `model_call:${c.model_call_id || 'unknown'}`;
const failed = (c: TrajectoryModelCall) => c.response_metadata.error_category !== null || (c.response_metadata.status_code ?? 200) >= 400;

const CHECKS: Record<string, Check> = {
  rollout_missing_agent_turns: (t) =>
    t.invocations
      .filter((i) => !t.turns.some((turn) => turn.invocation_id === i.invocation_id))
      .map((i) => ({ check: 'rollout_missing_agent_turns', locator: `invocation:${i.invocation_id}`, detail: 'the invocation reported no turn' })),
  rollout_ended_on_failed_model_call: (t, _row, bound) => {
    if (bound.length === 0) return 'unobserved';
    const out: HealthFinding[] = [];
    for (const inv of t.invocations) {
      const last = inv.model_calls.at(-1);
      const call = last === undefined ? undefined : bound.find((c) => c.model_call_id === last.model_call_id);
      if (call !== undefined && failed(call))
        out.push({
          check: 'rollout_ended_on_failed_model_call',
          locator: callLocator(call),
          detail: `the last model call of ${inv.invocation_id} failed (status ${call.response_metadata.status_code ?? 'unknown'}, ${call.response_metadata.error_category ?? 'error'})`,
        });
    }
    return out;
  },
  rollout_token_count_mismatch: (_t, row, bound) => {
    const reported = (row['response'] as Row | undefined)?.['usage'] as Row | undefined;
    const total = reported?.['total_tokens'];
    const calls = bound.filter((c) => !failed(c)).map((c) => c.token_stats.total_tokens);
    if (typeof total !== 'number' || calls.length === 0 || calls.some((v) => v === null)) return 'unobserved';
    const sum = (calls as number[]).reduce((a, b) => a + b, 0);
    return sum === total ? [] : [{ check: 'rollout_token_count_mismatch', locator: 'rollout', detail: `the response reports ${total} total tokens, the captured calls ${sum}` }];
  },
  agent_turn_hollow: (t) =>
    t.turns
      .filter((turn) => (turn.answer ?? '').trim() === '' && turn.model_calls.length === 0)
      .map((turn) => ({ check: 'agent_turn_hollow', locator: `turn:${turn.invocation_id}#${turn.turn_no}`, detail: 'the turn has no answer and no model call' })),
  trajectory_capture_mismatch: (t) =>
    t.gaps.some((g) => g.code === CAPTURE_LOST)
      ? 'unobserved'
      : t.gaps
          .filter((g) => MISMATCH_GAPS.has(g.code))
          .map((g) => ({ check: 'trajectory_capture_mismatch', locator: `invocation:${g.invocation_id ?? 'unknown'}`, detail: `${g.code}: ${g.detail ?? ''}` })),
  model_call_failed: (_t, _row, bound) =>
    bound
      .filter(failed)
      .map((c) => ({ check: 'model_call_failed', locator: callLocator(c), detail: `status ${c.response_metadata.status_code ?? 'unknown'}, ${c.response_metadata.error_category ?? 'error'}` })),
  model_call_missing_token_counts: (_t, _row, bound) =>
    bound
      .filter((c) => !failed(c) && (c.token_stats.prompt_tokens === null || c.token_stats.completion_tokens === null))
      .map((c) => ({ check: 'model_call_missing_token_counts', locator: callLocator(c), detail: 'the response reported no prompt or completion token count' })),
  model_call_runaway_generation: (_t, _row, bound) =>
    bound
      .filter((c) => RUNAWAY.has(c.response_metadata.finish_reason ?? ''))
      .map((c) => ({ check: 'model_call_runaway_generation', locator: callLocator(c), detail: `generation stopped at the token limit (${c.response_metadata.finish_reason})` })),
  model_call_zero_completion_tokens: (_t, _row, bound) =>
    bound
      .filter((c) => !failed(c) && c.token_stats.completion_tokens === 0)
      .map((c) => ({ check: 'model_call_zero_completion_tokens', locator: callLocator(c), detail: 'the call completed with 0 completion tokens' })),
};

/** The rollout id of a row: its trajectory's, else `<task>-<rollout>[-a<n>]`. */
export function rowRolloutId(row: Row): string | null {
  const trajectory = row['ng_trajectory'] as TrajectoryRecord | undefined;
  if (typeof trajectory?.rollout_id === 'string') return trajectory.rollout_id;
  const task = row['_ng_task_index'];
  const rollout = row['_ng_rollout_index'];
  if (typeof task !== 'number' || typeof rollout !== 'number') return null;
  const attempt = row['_ng_attempt_index'];
  return typeof attempt === 'number' && attempt > 0 ? `${task}-${rollout}-a${attempt}` : `${task}-${rollout}`;
}

/** Checks one readable row. `ignore` = check ids not to run; `duplicate` = its identity appears twice. */
export function checkRollout(row: Row, options: { ignore: ReadonlySet<string>; duplicate: boolean }): RolloutVerdict {
  const rolloutId = rowRolloutId(row) ?? 'unknown';
  const task = row['_ng_task_index'];
  const findings: HealthFinding[] = [];
  const unobserved: string[] = [];
  if (options.duplicate && !options.ignore.has('rollout_duplicate_identity')) {
    findings.push({ check: 'rollout_duplicate_identity', locator: 'rollout', detail: `rollout ${rolloutId} appears more than once in the file` });
  }
  const trajectory = row['ng_trajectory'] as TrajectoryRecord | undefined;
  const usable = trajectory !== undefined && trajectory !== null && Array.isArray(trajectory.model_calls) && Array.isArray(trajectory.gaps);
  const gaps: ObservationGap[] = usable ? trajectory.gaps : [];
  const noTurns = gaps.some((g) => g.code === 'turns_unavailable');
  const noCapture = gaps.some((g) => CAPTURE_UNAVAILABLE_GAPS.has(g.code));
  const bound = usable ? trajectory.model_calls.filter((c) => c.invocation_id !== null) : [];
  for (const id of Object.keys(CHECKS)) {
    if (options.ignore.has(id)) continue;
    if (!usable || (noTurns && TURN_CHECKS.has(id))) {
      unobserved.push(id);
      continue;
    }
    let result: CheckResult;
    try {
      result = CHECKS[id]!(trajectory, row, bound);
    } catch (error) {
      if (!options.ignore.has('check_execution_error')) findings.push({ check: 'check_execution_error', locator: id, detail: error instanceof Error ? error.message : String(error) });
      continue;
    }
    if (result === 'unobserved') unobserved.push(id);
    else findings.push(...result);
    // a capture that is partly missing: what was seen counts, but the check could not see everything
    if (result !== 'unobserved' && noCapture && CALL_CHECKS.has(id) && !unobserved.includes(id)) unobserved.push(id);
  }
  const lost = gaps.find((g) => g.code === CAPTURE_LOST);
  return {
    rollout_id: rolloutId,
    task_id: typeof task === 'number' ? String(task) : null,
    verdict: findings.length > 0 ? 'unhealthy' : unobserved.length > 0 ? 'unobserved' : 'healthy',
    findings,
    unobserved,
    ...(typeof lost?.detail === 'string' ? { unobserved_cause: lost.detail } : {}),
  };
}

/** The verdict of a line that is not a JSON object. */
export function unreadableVerdict(file: string, line: number, ignore: ReadonlySet<string>): RolloutVerdict {
  const findings = ignore.has('record_unreadable') ? [] : [{ check: 'record_unreadable', locator: `line:${line}`, detail: 'the line is not a JSON object' }];
  return {
    rollout_id: `__unreadable_record__:${file}:line-${line}`,
    task_id: null,
    verdict: findings.length > 0 ? 'unhealthy' : 'unobserved',
    findings,
    unobserved: findings.length > 0 ? [] : ['record_unreadable'],
  };
}
