/**
 * `gym eval aggregate`: concatenate rollout shards into one file and recompute the aggregate
 * metrics over all of them (locally; no server is needed).
 * @module
 */
import { aggregateShards } from '../../rollouts/shards.js';
import { metricsSummary } from '../../rollouts/summary.js';
import type { CliIo } from '../io.js';

/** Flags of `gym eval aggregate`. */
export interface EvalAggregateFlags {
  inputGlob: string[];
  output: string;
}

/** Runs `gym eval aggregate`. */
export async function evalAggregate(flags: EvalAggregateFlags, io: CliIo): Promise<void> {
  const result = await aggregateShards(flags.inputGlob, flags.output, (line) => io.err(`gym: warning: ${line}`));
  io.out(`merged ${result.rows} rollouts from ${result.files.length} file(s) into ${flags.output}`);
  for (const line of metricsSummary(result.metrics)) io.out(line);
  io.out(`metrics: ${result.metricsPath}`);
}
