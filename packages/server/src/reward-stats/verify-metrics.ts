/**
 * What a server's `POST /aggregate_metrics` answers by default, as the original's base classes
 * compute it: the reward profile of the verify responses it is sent (the same statistics the
 * collector computes, see {@link profileRollouts}), a server's own metrics merged in, and the
 * headline metrics. Pure.
 * @module
 */
import { defaultKeyMetrics, profileRollouts } from './aggregate-metrics.js';
import { isJsonObject } from '../protocol/json.js';
import type { JsonObject } from '../protocol/json.js';

/** The answer of `POST /aggregate_metrics`, field names as the original's. */
export interface VerifyMetrics {
  /** One entry per task, tasks ascending. */
  group_level_metrics: JsonObject[];
  /** Over every rollout: `mean/<field>`, `max/…`, `min/…`, `median/…`, `std/…`, plus the server's own metrics. */
  agent_metrics: JsonObject;
  /** The headline subset of `agent_metrics`; by default every `mean/*` entry. */
  key_metrics: JsonObject;
  [extra: string]: unknown;
}

/** A server's own additions, as the original's `compute_metrics` / `get_key_metrics` overrides. */
export interface VerifyMetricsHooks {
  /**
   * Metrics over every verify response, grouped by task (`tasks[i]` holds task i's rollouts, tasks
   * ascending). The answer is merged into `agent_metrics`; its `per_task_metrics` entries (each
   * with `_ng_task_index`) are merged into the matching group instead.
   */
  computeMetrics?: (tasks: JsonObject[][]) => JsonObject;
  /** The headline metrics, picked from the final `agent_metrics`. */
  getKeyMetrics?: (agentMetrics: JsonObject) => JsonObject;
}

/** The agent name the original profiles verify responses under; it shows in each group's `sample`. */
const PROFILE_AGENT = 'agent';

/** Computes the default `/aggregate_metrics` answer. No verify responses give empty metrics. */
export function computeVerifyMetrics(verifyResponses: readonly JsonObject[], hooks: VerifyMetricsHooks = {}): VerifyMetrics {
  if (verifyResponses.length === 0) return { group_level_metrics: [], agent_metrics: {}, key_metrics: {} };
  // The original profiles each response against a stand-in input row holding only its indices,
  // so a task expects the rollouts it was sent and its sample is that stand-in.
  const inputs = verifyResponses.map((vr) => ({ _ng_task_index: taskIndexOf(vr), _ng_rollout_index: rolloutIndexOf(vr), agent_ref: { name: PROFILE_AGENT } }));
  const profile = profileRollouts(PROFILE_AGENT, verifyResponses, inputs);
  const groups = profile.group_level_metrics;
  const agentMetrics: JsonObject = { ...profile.agent_metrics };
  if (hooks.computeMetrics !== undefined) {
    const { per_task_metrics: perTask, ...custom } = hooks.computeMetrics(groupByTask(verifyResponses));
    for (const entry of Array.isArray(perTask) ? perTask.filter(isJsonObject) : []) {
      const group = groups.find((g) => g['_ng_task_index'] === entry['_ng_task_index']);
      if (group === undefined) continue;
      for (const [key, value] of Object.entries(entry)) if (key !== '_ng_task_index') group[key] = value;
    }
    Object.assign(agentMetrics, custom);
  }
  const keyMetrics = hooks.getKeyMetrics !== undefined ? hooks.getKeyMetrics(agentMetrics) : defaultKeyMetrics(agentMetrics);
  return { group_level_metrics: groups, agent_metrics: agentMetrics, key_metrics: keyMetrics };
}

const taskIndexOf = (row: JsonObject): number => (typeof row['_ng_task_index'] === 'number' ? row['_ng_task_index'] : 0);
const rolloutIndexOf = (row: JsonObject): number => (typeof row['_ng_rollout_index'] === 'number' ? row['_ng_rollout_index'] : 0);

/** Verify responses by task, tasks ascending, each task's rollouts in the order sent. */
function groupByTask(rows: readonly JsonObject[]): JsonObject[][] {
  const tasks = new Map<number, JsonObject[]>();
  for (const row of rows) {
    let list = tasks.get(taskIndexOf(row));
    if (list === undefined) tasks.set(taskIndexOf(row), (list = []));
    list.push(row);
  }
  return [...tasks.keys()].sort((a, b) => a - b).map((task) => tasks.get(task)!);
}
