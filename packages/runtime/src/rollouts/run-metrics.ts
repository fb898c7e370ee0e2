/**
 * The aggregate stage of a run: local metrics, merged with each agent's `/aggregate_metrics`
 * answer when the agent is reachable, written to `<stem>_aggregate_metrics.json`.
 * @module
 */
import { computeAggregateMetrics, mergeServerMetrics, stripForAggregation } from '@gym/server/internal/reward-stats/aggregate-metrics.js';
import { ROLLOUT_WARNINGS } from './errors.js';
import { writeTextFile } from './rollout-files.js';
import type { HttpClient } from '@gym/server/internal/http/types.js';
import type { AgentAggregateMetrics } from '@gym/server/internal/reward-stats/aggregate-metrics.js';
import type { JsonObject } from './types.js';

/** Options of {@link writeRunMetrics}. */
export interface RunMetricsOptions {
  /** Successful rows of the whole run (earlier runs included on resume). */
  rows: readonly JsonObject[];
  /** The materialized inputs, for expected counts and samples. */
  inputs?: readonly JsonObject[];
  /** Where to write the JSON array. */
  path: string;
  /** With both, each agent's `/aggregate_metrics` is asked too. */
  http?: HttpClient;
  agents?: ReadonlyMap<string, string>;
  onWarning?: (line: string) => void;
}

/** Computes, merges and writes the aggregate metrics; returns them. An agent that fails to answer only warns. */
export async function writeRunMetrics(options: RunMetricsOptions): Promise<AgentAggregateMetrics[]> {
  const local = computeAggregateMetrics(options.rows, { inputs: options.inputs });
  const merged = await Promise.all(
    local.map(async (entry) => {
      const url = options.agents?.get(entry.agent_ref.name);
      if (options.http === undefined || url === undefined) return entry;
      const rows = options.rows.filter((r) => (r['agent_ref'] as { name?: unknown } | undefined)?.name === entry.agent_ref.name);
      try {
        const answer = await options.http.post(`${url}/aggregate_metrics`, { verify_responses: rows.map(stripForAggregation) }, { timeoutMs: 120_000 });
        return mergeServerMetrics(entry, answer.body);
      } catch (error) {
        options.onWarning?.(`${ROLLOUT_WARNINGS.aggregateCallFailed}: ${url}/aggregate_metrics failed (${(error as Error).message}); keeping the locally computed metrics.`);
        return entry;
      }
    }),
  );
  writeTextFile(options.path, `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}
