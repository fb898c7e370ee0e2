/**
 * A run's jobs: its `gym.job` spans, each the root of a trace of its own, and how many of the
 * run's rollouts link to it (the first span of each rollout's trace carries a span link to its
 * job). Files from before one trace per rollout hold the rollouts under the job instead: those
 * count too.
 * @module
 */
import { SPAN } from '../span-record.js';
import { outermostOf } from './rollouts.js';
import type { Rollout } from './rollouts.js';
import type { SpanNode, Trace, TraceSet } from './trace-model.js';

/** One `gym.job` and the rollouts that belong to it. */
export interface RunJob {
  trace: Trace;
  node: SpanNode;
  /** Rollouts whose trace links to this job's span, or that sit in its trace. */
  rollouts: number;
}

/** Every `gym.job` root of `set`, in start order, with the rollouts of `rollouts` that belong to it. */
export function findJobs(set: TraceSet, rollouts: readonly Rollout[]): RunJob[] {
  const jobs: RunJob[] = [];
  for (const trace of set.traces.values()) for (const root of trace.roots) if (root.span.name === SPAN.JOB) jobs.push({ trace, node: root, rollouts: 0 });
  if (jobs.length === 0) return jobs;
  const bySpan = new Map(jobs.map((j) => [j.node.span.spanId, j]));
  const byTrace = new Map(jobs.map((j) => [j.trace.traceId, j]));
  for (const r of rollouts) {
    const linked = outermostOf(r).span.links?.find((l) => bySpan.has(l.spanId));
    const job = linked === undefined ? byTrace.get(r.traceId) : bySpan.get(linked.spanId);
    if (job !== undefined) job.rollouts++;
  }
  return jobs.sort((a, b) => (a.node.span.startNs < b.node.span.startNs ? -1 : a.node.span.startNs > b.node.span.startNs ? 1 : 0));
}
