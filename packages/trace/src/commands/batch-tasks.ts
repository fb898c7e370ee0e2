/**
 * What `anomalies`, `why --all` and `report` keep of each batch of a large run: running
 * sums, fed batch by batch in order (see `load-batches.ts`).
 * @module
 */
import { AnomalyAccumulator } from '../analyze/anomalies.js';
import { AttributionSums } from '../analyze/attribution-sums.js';
import type { SpanStats } from '../analyze/stats.js';
import { ReportBuilder } from '../report/report-data.js';
import type { Batch } from './load-batches.js';

/** Sums over batches. */
export interface BatchTask {
  add(batch: Batch): void;
}

/** `anomalies`. */
export class AnomaliesTask implements BatchTask {
  readonly anomalies = new AnomalyAccumulator();

  add({ set, rollouts }: Batch): void {
    this.anomalies.add(set, rollouts);
  }
}

/** `why --all`: the time split and bottleneck over every rollout (or every trace root, without rollouts). */
export class WhyAllTask implements BatchTask {
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
}

/** `report`: the page data ({@link ReportBuilder}); the same file whatever the number of threads. */
export class ReportTask implements BatchTask {
  readonly builder: ReportBuilder;

  constructor(options: { maxRollouts: number; maxSpans: number; maxRows: number; stats?: SpanStats }) {
    this.builder = new ReportBuilder(options);
  }

  add({ set, rollouts, shared }: Batch): void {
    this.builder.add(set, rollouts, shared);
  }
}
