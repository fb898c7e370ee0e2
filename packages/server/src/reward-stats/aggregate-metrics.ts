/**
 * Aggregate metrics of a collection run, computed locally from the successful
 * rows: per agent `mean/max/min/median/std` of every numeric field, per-task groups, and pass@k of
 * the reward (as `accuracy`). Also the merge with an agent's own `/aggregate_metrics` answer. Pure.
 * @module
 */
import { describeColumns, numericColumns } from './numeric-stats.js';
import { passAtKMetrics } from './pass-at-k.js';
import { isJsonObject } from '../protocol/json.js';
import type { JsonObject } from '../protocol/json.js';

/** Metrics of one task (group). */
export interface GroupMetrics extends JsonObject {
  _ng_task_index: number;
  num_rollouts: number;
  expected_num_rollouts: number;
  missing_num_rollouts: number;
  reward_profile_completion_pct: number;
  /** The task's input row (without the index keys). */
  sample: JsonObject;
  rollout_infos: JsonObject[];
}

/** One entry of `<stem>_aggregate_metrics.json`. */
export interface AgentAggregateMetrics {
  agent_ref: { name: string };
  agent_metrics: JsonObject;
  key_metrics: JsonObject;
  group_level_metrics: JsonObject[];
}

/** Heavy fields left out of the rows sent to `/aggregate_metrics` (`response` keeps its `usage`). */
const HEAVY_FIELDS = new Set(['response', 'responses_create_params', 'ng_trajectory', 'ng_model_call_capture', 'ng_agent_observations']);

/** A row without its heavy fields, as the original sends to `/aggregate_metrics`. */
export function stripForAggregation(row: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(row)) if (!HEAVY_FIELDS.has(key)) out[key] = value;
  const response = row['response'];
  if (isJsonObject(response) && isJsonObject(response['usage'])) out['response'] = { usage: response['usage'] };
  return out;
}

const isCollectorKey = (key: string): boolean => key.startsWith('_ng_');
const skipKeys = (row: JsonObject): Set<string> => new Set(Object.keys(row).filter(isCollectorKey));

/** Options of {@link computeAggregateMetrics}. */
export interface AggregateOptions {
  /** The materialized inputs: give each task its expected rollout count and its `sample`. */
  inputs?: readonly JsonObject[];
}

/** Groups successful rows by `agent_ref.name` and computes each agent's metrics, agents in first-seen order. */
export function computeAggregateMetrics(rows: readonly JsonObject[], options: AggregateOptions = {}): AgentAggregateMetrics[] {
  const byAgent = new Map<string, JsonObject[]>();
  for (const row of rows) {
    const name = agentName(row) ?? 'unknown_agent';
    let list = byAgent.get(name);
    if (list === undefined) byAgent.set(name, (list = []));
    list.push(row);
  }
  return [...byAgent].map(([name, agentRows]) => {
    const inputs = options.inputs?.filter((r) => agentName(r) === name);
    return computeAgentMetrics(name, agentRows, inputs);
  });
}

/** The metrics of one agent's rows: the profile of {@link profileRollouts} plus pass@k of the reward (as `accuracy`). */
export function computeAgentMetrics(name: string, rows: readonly JsonObject[], inputs?: readonly JsonObject[]): AgentAggregateMetrics {
  const profile = profileRollouts(name, rows, inputs);
  const rewardTasks = [...groupByTask(rows).values()].map((t) =>
    t
      .map((r) => r['reward'])
      .filter((v): v is number => typeof v === 'number' || typeof v === 'boolean')
      .map(Number),
  );
  if (rewardTasks.some((t) => t.length > 0))
    Object.assign(
      profile.agent_metrics,
      passAtKMetrics(
        rewardTasks.filter((t) => t.length > 0),
        'accuracy',
      ),
    );
  return { ...profile, key_metrics: defaultKeyMetrics(profile.agent_metrics) };
}

/**
 * The original's reward profile of one agent's rows: `mean/max/min/median/std` of every numeric
 * field overall and per task, each task's counts, sample and rollout infos. `inputs` (its
 * materialized rows) fill in expected counts and samples; without them a task expects the rollouts
 * it has.
 */
export function profileRollouts(name: string, rows: readonly JsonObject[], inputs?: readonly JsonObject[]): AgentAggregateMetrics {
  const tasks = groupByTask(rows);
  const expected = new Map<number, number>();
  const samples = new Map<number, JsonObject>();
  for (const input of inputs ?? []) {
    const task = taskIndex(input);
    expected.set(task, (expected.get(task) ?? 0) + 1);
    if (!samples.has(task)) samples.set(task, withoutIndices(input));
  }
  const agentMetrics: JsonObject = describeColumns(rows.map((r) => numericColumns(r, skipKeys(r))));
  const groups: JsonObject[] = [];
  for (const [task, taskRows] of tasks) {
    const numRollouts = taskRows.length;
    const expectedNum = expected.get(task) ?? numRollouts;
    const group: GroupMetrics = {
      _ng_task_index: task,
      ...describeColumns(taskRows.map((r) => numericColumns(r, skipKeys(r)))),
      num_rollouts: numRollouts,
      expected_num_rollouts: expectedNum,
      missing_num_rollouts: Math.max(0, expectedNum - numRollouts),
      reward_profile_completion_pct: expectedNum === 0 ? 100 : (100 * numRollouts) / expectedNum,
      sample: samples.get(task) ?? withoutIndices(stripForAggregation(taskRows[0]!)),
      rollout_infos: taskRows.map((r) => rolloutInfo(r)),
    };
    groups.push(group);
  }
  return { agent_ref: { name }, agent_metrics: agentMetrics, key_metrics: defaultKeyMetrics(agentMetrics), group_level_metrics: groups };
}

/** The original's default headline metrics: every `mean/*` entry. */
export function defaultKeyMetrics(agentMetrics: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(agentMetrics).filter(([key]) => key.startsWith('mean/')));
}

/** Group fields the local profile knows better than a server, which sees only verify responses. */
const LOCAL_GROUP_FIELDS = ['sample', 'expected_num_rollouts', 'missing_num_rollouts', 'reward_profile_completion_pct'] as const;

/**
 * Merges an agent's `/aggregate_metrics` answer over the local metrics: its `agent_metrics` keys
 * win; a non-empty `key_metrics` replaces the local headline; its group entries are merged into
 * the local ones by `_ng_task_index`, except the task's sample and expected counts, which only the
 * collector knows. An empty or malformed answer leaves `local` unchanged.
 */
export function mergeServerMetrics(local: AgentAggregateMetrics, answer: unknown): AgentAggregateMetrics {
  if (!isJsonObject(answer)) return local;
  const agentMetrics = isJsonObject(answer['agent_metrics']) ? { ...local.agent_metrics, ...answer['agent_metrics'] } : local.agent_metrics;
  const serverKeys = isJsonObject(answer['key_metrics']) && Object.keys(answer['key_metrics']).length > 0 ? answer['key_metrics'] : undefined;
  const groups = local.group_level_metrics.map((g) => ({ ...g }));
  const serverGroups = Array.isArray(answer['group_level_metrics']) ? answer['group_level_metrics'].filter(isJsonObject) : [];
  for (const serverGroup of serverGroups) {
    const match = groups.find((g) => g['_ng_task_index'] === serverGroup['_ng_task_index']);
    if (match === undefined) continue;
    const kept = LOCAL_GROUP_FIELDS.map((key) => [key, match[key]] as const);
    Object.assign(match, serverGroup);
    for (const [key, value] of kept) if (value !== undefined) match[key] = value;
  }
  return { agent_ref: local.agent_ref, agent_metrics: agentMetrics, key_metrics: serverKeys ?? defaultKeyMetrics(agentMetrics), group_level_metrics: groups };
}

function agentName(row: JsonObject): string | undefined {
  const ref = row['agent_ref'];
  return isJsonObject(ref) && typeof ref['name'] === 'string' ? ref['name'] : undefined;
}

const taskIndex = (row: JsonObject): number => (typeof row['_ng_task_index'] === 'number' ? row['_ng_task_index'] : 0);
const rolloutIndex = (row: JsonObject): number => (typeof row['_ng_rollout_index'] === 'number' ? row['_ng_rollout_index'] : 0);

/** Rows by task index, tasks ascending, rollouts ascending within a task. */
function groupByTask(rows: readonly JsonObject[]): Map<number, JsonObject[]> {
  const sorted = [...rows].sort((a, b) => taskIndex(a) - taskIndex(b) || rolloutIndex(a) - rolloutIndex(b));
  const tasks = new Map<number, JsonObject[]>();
  for (const row of sorted) {
    let list = tasks.get(taskIndex(row));
    if (list === undefined) tasks.set(taskIndex(row), (list = []));
    list.push(row);
  }
  return tasks;
}

function withoutIndices(row: JsonObject): JsonObject {
  const { _ng_task_index: _t, _ng_rollout_index: _r, ...rest } = row;
  return rest;
}

function rolloutInfo(row: JsonObject): JsonObject {
  const info: JsonObject = { rollout_id: `${taskIndex(row)}:${rolloutIndex(row)}`, _ng_task_index: taskIndex(row), _ng_rollout_index: rolloutIndex(row) };
  for (const [key, value] of numericColumns(row, skipKeys(row))) info[key] = value;
  return info;
}
