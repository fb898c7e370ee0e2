/**
 * `runHealthCheck()`: checks every row of a rollouts file and writes, next to it,
 * `<stem>_rollout_verdicts.jsonl` (one verdict per non-empty line, sorted by task and rollout)
 * and `<stem>_quality_summary.json` (verdict counts, issues per check, coverage, model-call
 * errors, token totals, per-task flags). Read-only towards the rollouts file.
 * @module
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { GymUserError } from '@gym/server/internal/errors.js';
import { parseJsonlObjects } from '../rollouts/jsonl.js';
import { writeJsonlFile, writeTextFile } from '../rollouts/rollout-files.js';
import { checkRollout, rowRolloutId, ROLLOUT_CHECKS, TASK_CHECKS, unreadableVerdict } from './health-checks.js';
import type { RolloutVerdict } from './health-checks.js';
import type { TrajectoryRecord } from '@gym/server/internal/evidence/observations.js';

/** Options of {@link runHealthCheck}. */
export interface HealthCheckOptions {
  /** The rollouts JSONL of a run. */
  rolloutsFile: string;
  /** Check ids not to run. */
  ignore?: readonly string[];
}

/** What a health check wrote and found. */
export interface HealthCheckResult {
  verdictsPath: string;
  summaryPath: string;
  counts: { checked: number; healthy: number; unhealthy: number; unobserved: number };
  /** `Rollout health: N checked, …`. */
  line: string;
  /** Why every verdict is `unobserved`, when no row carries evidence at all (the run had it off). */
  hint?: string;
}

/** The files a health check of `rolloutsFile` writes. */
export function healthCheckPaths(rolloutsFile: string): { verdicts: string; summary: string } {
  const dir = dirname(rolloutsFile);
  const stem = basename(rolloutsFile, extname(rolloutsFile));
  return { verdicts: join(dir, `${stem}_rollout_verdicts.jsonl`), summary: join(dir, `${stem}_quality_summary.json`) };
}

/**
 * Runs the checks over a rollouts file.
 * @throws {GymUserError} `GYM_HEALTH_INPUT_NOT_FOUND` when the file cannot be read, `GYM_HEALTH_UNKNOWN_CHECK` for an unknown id in `ignore`.
 */
export function runHealthCheck(options: HealthCheckOptions): HealthCheckResult {
  const known = new Set<string>([...ROLLOUT_CHECKS, ...TASK_CHECKS]);
  const unknown = (options.ignore ?? []).filter((id) => !known.has(id));
  if (unknown.length > 0) throw new GymUserError('GYM_HEALTH_UNKNOWN_CHECK', `Unknown check id(s) ${unknown.join(', ')}. Checks: ${[...known].join(', ')}.`);
  const ignore = new Set(options.ignore ?? []);
  let text: string;
  try {
    text = readFileSync(options.rolloutsFile, 'utf8');
  } catch (error) {
    throw new GymUserError('GYM_HEALTH_INPUT_NOT_FOUND', `Cannot read rollouts file ${options.rolloutsFile}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = parseJsonlObjects(text);
  const identities = new Map<string, number>();
  for (const { value } of parsed.lines) {
    const id = rowRolloutId(value);
    if (id !== null) identities.set(id, (identities.get(id) ?? 0) + 1);
  }
  const file = basename(options.rolloutsFile);
  const rows = parsed.lines.map(({ value }) => {
    const id = rowRolloutId(value);
    return { value, verdict: checkRollout(value, { ignore, duplicate: id !== null && (identities.get(id) ?? 0) > 1 }) };
  });
  const order = (v: Record<string, unknown>) => [Number(v['_ng_task_index'] ?? Infinity), Number(v['_ng_rollout_index'] ?? Infinity)] as const;
  rows.sort((a, b) => {
    const [ta, ra] = order(a.value);
    const [tb, rb] = order(b.value);
    return ta - tb || ra - rb;
  });
  const verdicts: RolloutVerdict[] = [...rows.map((r) => r.verdict), ...parsed.malformed.map((m) => unreadableVerdict(file, m.lineNumber, ignore))];
  const paths = healthCheckPaths(options.rolloutsFile);
  writeJsonlFile(paths.verdicts, verdicts as unknown as Record<string, unknown>[]);
  const summary = qualitySummary(
    rows.map((r) => r.value),
    verdicts,
    ignore,
    parsed.malformed.length,
  );
  writeTextFile(paths.summary, `${JSON.stringify(summary, null, 2)}\n`);
  const counts = summary.run;
  const result: HealthCheckResult = {
    verdictsPath: paths.verdicts,
    summaryPath: paths.summary,
    counts,
    line: `Rollout health: ${counts.checked} checked, ${counts.healthy} healthy, ${counts.unhealthy} unhealthy, ${counts.unobserved} unobserved`,
  };
  // a run collected with evidence off is all `unobserved`: say so rather than leave it a mystery
  if (rows.length > 0 && summary.artifacts.with_trajectory === 0) {
    result.hint = `No row of ${file} carries rollout evidence (ng_trajectory): the run had it off. Collect with ++observability_enabled=true ++model_call_capture_dir=<absolute dir> to get verdicts.`;
  }
  return result;
}

/** The distinct causes of missing evidence. */
function causes(verdicts: readonly RolloutVerdict[]): string[] {
  return [...new Set(verdicts.flatMap((v) => (v.unobserved_cause === undefined ? [] : [v.unobserved_cause])))];
}

function qualitySummary(rows: Record<string, unknown>[], verdicts: RolloutVerdict[], ignore: ReadonlySet<string>, unreadable: number) {
  const run = { checked: verdicts.length, healthy: 0, unhealthy: 0, unobserved: 0 };
  const issues: Record<string, number> = {};
  const coverage: Record<string, { evaluated: number; unobserved: number; ignored: number }> = {};
  for (const id of ROLLOUT_CHECKS) coverage[id] = { evaluated: 0, unobserved: 0, ignored: 0 };
  for (const v of verdicts) {
    run[v.verdict]++;
    for (const f of v.findings) issues[f.check] = (issues[f.check] ?? 0) + 1;
    for (const id of ROLLOUT_CHECKS) {
      if (ignore.has(id)) coverage[id]!.ignored++;
      else if (v.unobserved.includes(id)) coverage[id]!.unobserved++;
      else coverage[id]!.evaluated++;
    }
  }
  const calls = { total: 0, bound: 0, failed: 0, by_error_category: {} as Record<string, number> };
  const tokens = { prompt_tokens: 0 as number | null, completion_tokens: 0 as number | null, total_tokens: 0 as number | null };
  const tasks: Record<string, { rollouts: number; healthy: number; unhealthy: number; unobserved: number; successful_model_calls: number; bound_model_calls: number; flags: string[] }> = {};
  rows.forEach((row, i) => {
    const verdict = verdicts[i]!;
    const taskId = verdict.task_id ?? 'unknown';
    const task = (tasks[taskId] ??= { rollouts: 0, healthy: 0, unhealthy: 0, unobserved: 0, successful_model_calls: 0, bound_model_calls: 0, flags: [] });
    task.rollouts++;
    task[verdict.verdict]++;
    const trajectory = row['ng_trajectory'] as TrajectoryRecord | undefined;
    for (const call of Array.isArray(trajectory?.model_calls) ? trajectory.model_calls : []) {
      calls.total++;
      const failed = call.response_metadata.error_category !== null || (call.response_metadata.status_code ?? 200) >= 400;
      if (failed) {
        calls.failed++;
        const category = call.response_metadata.error_category ?? 'unknown';
        calls.by_error_category[category] = (calls.by_error_category[category] ?? 0) + 1;
      }
      if (call.invocation_id === null) continue;
      calls.bound++;
      task.bound_model_calls++;
      if (!failed) task.successful_model_calls++;
      for (const [key, value] of [
        ['prompt_tokens', call.token_stats.prompt_tokens],
        ['completion_tokens', call.token_stats.completion_tokens],
        ['total_tokens', call.token_stats.total_tokens],
      ] as const) {
        if (!failed) tokens[key] = value === null || tokens[key] === null ? null : tokens[key] + value;
      }
    }
  });
  for (const task of Object.values(tasks)) {
    if (!ignore.has('task_consistently_unhealthy') && task.rollouts > 1 && task.unhealthy === task.rollouts) task.flags.push('task_consistently_unhealthy');
    if (!ignore.has('task_no_successful_model_calls') && task.bound_model_calls > 0 && task.successful_model_calls === 0) task.flags.push('task_no_successful_model_calls');
    for (const flag of task.flags) issues[flag] = (issues[flag] ?? 0) + 1;
  }
  return {
    schema_version: 1,
    run,
    issues_by_check: issues,
    coverage,
    ignored_checks: [...ignore].sort(),
    artifacts: {
      rows: rows.length,
      unreadable_lines: unreadable,
      with_trajectory: rows.filter((r) => r['ng_trajectory'] !== undefined).length,
      // a capture disk that filled, named as such rather than left to look like bad trajectories
      capture_writes_lost: verdicts.filter((v) => v.unobserved_cause !== undefined).length,
      ...(causes(verdicts).length === 0 ? {} : { capture_loss_causes: causes(verdicts) }),
    },
    model_calls: calls,
    tokens,
    tasks,
  };
}
