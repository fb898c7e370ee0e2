/**
 * What `stats`, `anomalies`, `why --all` and `report` keep of each batch of a large run, as tasks a worker
 * thread can run on its share of the batches: each hands its sums over as plain data
 * ({@link BatchTask.state}), and the main thread merges them in batch order, as if it had read
 * every batch itself.
 * @module
 */
import { AnomalyAccumulator } from '../analyze/anomalies.js';
import type { AnomalyState } from '../analyze/anomalies.js';
import { AttributionTotals } from '../analyze/attribution-summary.js';
import type { AttributionTotalsState } from '../analyze/attribution-summary.js';
import { AttributionSums } from '../analyze/attribution-sums.js';
import type { AttributionSumsState } from '../analyze/attribution-sums.js';
import { StatsAccumulator } from '../analyze/stats.js';
import type { StatsGrouping, StatsState } from '../analyze/stats.js';
import { ReportBuilder } from '../report/report-data.js';
import type { ReportState } from '../report/report-data.js';
import type { Batch } from './load-batches.js';

/** Which task, with its options: sent to the worker threads, which build their own. */
export type BatchTaskSpec = { kind: 'stats'; by: StatsGrouping } | { kind: 'anomalies' } | { kind: 'why-all' } | { kind: 'report'; maxRollouts: number; maxSpans: number; maxRows: number };

/** Sums over batches that can be handed to another thread and merged there. */
export interface BatchTask<S = unknown> {
  readonly spec: BatchTaskSpec;
  add(batch: Batch): void;
  /** The sums so far, as structured-cloneable data. */
  state(): S;
  /** Adds another instance's {@link state}, as if its batches had been added here after these. */
  merge(state: S): void;
}

/** The task of `spec`. */
export function makeBatchTask(spec: BatchTaskSpec): BatchTask {
  switch (spec.kind) {
    case 'stats':
      return new StatsTask(spec.by);
    case 'anomalies':
      return new AnomaliesTask();
    case 'why-all':
      return new WhyAllTask();
    case 'report':
      return new ReportTask(spec);
  }
}

/** `stats`: per-group numbers, and the critical-path split of every rollout. */
export class StatsTask implements BatchTask<{ stats: StatsState; totals: AttributionTotalsState }> {
  readonly spec: BatchTaskSpec;
  readonly stats: StatsAccumulator;
  // the per-span numbers count parallel work; the critical-path split says what held rollouts up
  readonly totals = new AttributionTotals();

  constructor(by: StatsGrouping) {
    this.spec = { kind: 'stats', by };
    this.stats = new StatsAccumulator(by);
  }

  add({ set, rollouts, shared }: Batch): void {
    this.stats.add(set, rollouts, shared);
    for (const r of rollouts) this.totals.addRollout(r);
  }

  state(): { stats: StatsState; totals: AttributionTotalsState } {
    return { stats: this.stats.state(), totals: this.totals.state() };
  }

  merge(s: { stats: StatsState; totals: AttributionTotalsState }): void {
    this.stats.merge(s.stats);
    this.totals.merge(s.totals);
  }
}

/** `anomalies`. */
export class AnomaliesTask implements BatchTask<AnomalyState> {
  readonly spec: BatchTaskSpec = { kind: 'anomalies' };
  readonly anomalies = new AnomalyAccumulator();

  add({ set, rollouts }: Batch): void {
    this.anomalies.add(set, rollouts);
  }

  state(): AnomalyState {
    return this.anomalies.state();
  }

  merge(s: AnomalyState): void {
    this.anomalies.merge(s);
  }
}

interface WhyAllState {
  byRollout: AttributionSumsState;
  byRoot: AttributionSumsState;
}

/** `why --all`: the time split and bottleneck over every rollout (or every trace root, without rollouts). */
export class WhyAllTask implements BatchTask<WhyAllState> {
  readonly spec: BatchTaskSpec = { kind: 'why-all' };
  readonly byRollout = new AttributionSums();
  // Without rollout spans, fall back to every trace root, so plain traces still get an answer.
  readonly byRoot = new AttributionSums();

  add({ set, rollouts, shared }: Batch): void {
    if (rollouts.length > 0) {
      for (const r of rollouts) this.byRollout.addRollout(r);
      return;
    }
    for (const t of set.traces.values())
      for (const root of t.roots)
        // a root whose parent was read in another batch is inside a rollout there, not a trace root
        if (shared === null || root.span.parentSpanId === null || !shared.has(root.span.parentSpanId)) this.byRoot.add(root);
  }

  /** The sums to answer from: over rollouts when there were any. */
  get used(): AttributionSums {
    return this.byRollout.totals.count > 0 ? this.byRollout : this.byRoot;
  }

  state(): WhyAllState {
    return { byRollout: this.byRollout.state(), byRoot: this.byRoot.state() };
  }

  merge(s: WhyAllState): void {
    this.byRollout.merge(s.byRollout);
    this.byRoot.merge(s.byRoot);
  }
}

/** `report`: the page data ({@link ReportBuilder}); the same file whatever the number of threads. */
export class ReportTask implements BatchTask<ReportState> {
  readonly spec: BatchTaskSpec;
  readonly builder: ReportBuilder;

  constructor(options: { maxRollouts: number; maxSpans: number; maxRows: number }) {
    this.spec = { kind: 'report', ...options };
    this.builder = new ReportBuilder(options);
  }

  add({ set, rollouts, shared }: Batch): void {
    this.builder.add(set, rollouts, shared);
  }

  state(): ReportState {
    return this.builder.state();
  }

  merge(s: ReportState): void {
    this.builder.merge(s);
  }
}
