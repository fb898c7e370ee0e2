/**
 * The data behind the HTML report, built from loaded telemetry with the existing analyses
 * (attribution, span tree, stats, anomalies). Plain JSON: embedded in the page as-is.
 *
 * Built one batch of whole rollouts at a time ({@link ReportBuilder}): every count, statistic and
 * run-level series covers all rollouts, while what is kept per rollout is bounded — a large run
 * lists only the rollouts that carry a waterfall (the failed, the slowest, a sample) and says how
 * many it left out.
 * @module
 */
import { AnomalyAccumulator } from '../analyze/anomalies.js';
import type { AnomalyKind, AnomalyState } from '../analyze/anomalies.js';
import { buildSaturation } from '../analyze/saturation.js';
import type { SaturationData } from '../analyze/saturation.js';
import { CATEGORY_LABEL } from '../render/category-labels.js';
import { diagnosisSentence } from '../render/diagnosis.js';
import { TIME_CATEGORIES } from '../analyze/categorize.js';
import type { TimeCategory } from '../analyze/categorize.js';
import { StatsAccumulator } from '../analyze/stats.js';
import type { SpanStats, StatsState } from '../analyze/stats.js';
import { outermostOf } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { Trace, TraceSet } from '../assemble/trace-model.js';
import type { ReadStats } from '../read/read-stats.js';
import { nsToIso } from '../read/time.js';
import type { ReportDetail } from './report-detail.js';
import type { PickReason } from './row-picker.js';
import { RowTrack } from './row-track.js';
import type { RowItem, RowTrackState } from './row-track.js';
import { buildRunView } from './run-view.js';
import type { RunView } from './run-view.js';
import type { RolloutEvidence } from '../evidence/rollout-evidence.js';

export type { ReportDetail, ReportSpan } from './report-detail.js';

/** One row of the rollout list (a trace when the input has no `gym.rollout` spans). */
export interface ReportRow {
  /** Unique within the report (rollout ids may repeat across runs). */
  key: string;
  id: string;
  traceId: string;
  /** Start relative to the earliest span of the input. */
  startMs: number;
  durationMs: number;
  reward: number | null;
  /** The rollout's verdict (`verdict.ts`): `error`, `incomplete` (a span never ended or was truncated), `no_verify`, `ok`. */
  status: 'ok' | 'error' | 'no_verify' | 'incomplete';
  spans: number;
  /** True when `details[key]` holds the waterfall. */
  detail: boolean;
  /** Why the row carries a waterfall (failed, slowest, sample); null without one. */
  picked: PickReason | null;
}

/** One span-name line of the statistics table. Durations in ms. */
export interface ReportStat {
  name: string;
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  totalSelfMs: number;
}

/** Everything the page shows. */
export interface ReportData {
  type: 'gym_trace_report';
  generatedAt: string;
  inputs: string[];
  /** `rollout` rows, or `trace` rows when the input holds no rollouts. */
  rowKind: 'rollout' | 'trace';
  categories: readonly TimeCategory[];
  /** Display label per category. */
  categoryLabels: Record<TimeCategory, string>;
  /** The run at a glance: rollouts over time, durations, saturation, memory, the diagnosis. */
  run: RunView;
  summary: {
    rollouts: number;
    traces: number;
    spans: number;
    services: string[];
    start: string | null;
    end: string | null;
    errorSpans: number;
    anomalies: Record<AnomalyKind, number>;
    malformedLines: number;
    /** Critical-path time per category summed over every row, and the summed wall time. */
    timeSplit: { wallMs: number; categories: Record<TimeCategory, number> };
    /** Rows (rollouts, or traces) per verdict, over every row of the run. */
    statusCounts: Record<ReportRow['status'], number>;
  };
  /**
   * What the list holds: every row of the run (`capped: false`), or — above `--max-rows` — only
   * the rows with a waterfall, `leftOut` of them not listed (still counted everywhere else).
   */
  listing: { total: number; listed: number; capped: boolean; leftOut: number; maxRows: number; picked: Record<PickReason, number> };
  rows: ReportRow[];
  /** Waterfalls of at most `detailLimit` rows, by row key. */
  details: Record<string, ReportDetail>;
  detailLimit: number;
  stats: ReportStat[];
  /** Rollout evidence (`--evidence`) by row key; absent without it. */
  evidence?: Record<string, RolloutEvidence>;
}

/** Options of {@link buildReportData} and {@link ReportBuilder}. */
export interface ReportDataOptions {
  /** Rows with a full waterfall at most (a quarter failed, half the slowest, the rest a sample). Default 200. */
  maxRollouts?: number;
  /** Spans per waterfall at most. Default 1000. */
  maxSpans?: number;
  /** Above this many rows, only the rows with a waterfall are listed. Default {@link DEFAULT_MAX_ROWS}. */
  maxRows?: number;
  inputs?: string[];
  /** Default: now. */
  generatedAt?: Date;
  /** Process saturation read with the spans (default: none recorded). */
  saturation?: SaturationData;
  /**
   * The statistics table by span name, computed elsewhere (from SQL, as `stats` computes it):
   * given, the builder keeps no span's duration. Default: computed from the spans added.
   */
  stats?: SpanStats;
}

/** Default of `maxRows`: a list this long stays quick to embed, parse and sort in the page. */
export const DEFAULT_MAX_ROWS = 2000;
const MAX_STATS = 1000;

/** Builds the report data of one input read whole. */
export function buildReportData(set: TraceSet, rollouts: readonly Rollout[], read: ReadStats | null, options: ReportDataOptions = {}): ReportData {
  const builder = new ReportBuilder(options);
  builder.add(set, rollouts);
  return builder.finish(read);
}

/** What a {@link ReportBuilder} holds, as structured-cloneable data (for {@link ReportBuilder.merge} in another thread). */
export interface ReportState {
  /** Null when the table is given (`ReportDataOptions.stats`). */
  stats: StatsState | null;
  anomalies: AnomalyState;
  services: string[];
  rootedTraces: number;
  rootlessTraces: string[];
  spans: number;
  origin: bigint | null;
  end: bigint | null;
  rollouts: RowTrackState;
  traces: RowTrackState;
}

/**
 * The report data over batches of whole rollouts (`readInBatches`): sums, accumulators and
 * bounded keepers only, so memory follows the batch, not the run. Builders of consecutive shares
 * of the batches (worker threads), merged in order, give the data of one builder of every batch.
 */
export class ReportBuilder {
  readonly #options: ReportDataOptions;
  readonly #maxRows: number;
  // null: the table is given to `finish` (`stats`)
  readonly #stats: StatsAccumulator | null;
  readonly #anomalies = new AnomalyAccumulator({ maxPerKind: 0 });
  readonly #services = new Set<string>();
  // traces are counted where their root is (one batch), not by keeping every trace id: a run of
  // millions of single-rollout traces would keep millions of strings
  #rootedTraces = 0;
  readonly #rootlessTraces = new Set<string>();
  #spans = 0;
  #origin: bigint | null = null;
  #end: bigint | null = null;
  // rollout rows; trace rows only from batches without rollouts, used when the run has none
  readonly #rollouts: RowTrack;
  readonly #traces: RowTrack;

  constructor(options: ReportDataOptions = {}) {
    this.#options = options;
    this.#maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
    this.#stats = options.stats === undefined ? new StatsAccumulator() : null;
    this.#rollouts = new RowTrack(options.maxRollouts ?? 200, options.maxSpans ?? 1000, this.#maxRows);
    this.#traces = new RowTrack(options.maxRollouts ?? 200, options.maxSpans ?? 1000, this.#maxRows);
  }

  /** Adds one batch; `shared` as given by `readInBatches` (null for an input read whole). */
  add(set: TraceSet, rollouts: readonly Rollout[], shared: ReadonlySet<string> | null = null): void {
    this.#stats?.add(set, rollouts, shared);
    this.#anomalies.add(set, rollouts);
    this.#spans += set.spanCount;
    for (const t of set.traces.values()) {
      if (t.roots.some((r) => r.span.parentSpanId === null)) this.#rootedTraces++;
      else if (t.roots.some((r) => r.orphan)) this.#rootlessTraces.add(t.traceId);
      for (const s of t.services) this.#services.add(s);
      if (this.#origin === null || t.startNs < this.#origin) this.#origin = t.startNs;
      if (this.#end === null || t.endNs > this.#end) this.#end = t.endNs;
    }
    if (rollouts.length > 0) this.#rollouts.addBatch(rollouts.map(fromRollout));
    else this.#traces.addBatch([...set.traces.values()].filter((t) => t.roots.length > 0).map(fromTrace));
  }

  /** What has been added so far (the typed arrays are copies, free to transfer). */
  state(): ReportState {
    return {
      stats: this.#stats?.state() ?? null,
      anomalies: this.#anomalies.state(),
      services: [...this.#services],
      rootedTraces: this.#rootedTraces,
      rootlessTraces: [...this.#rootlessTraces],
      spans: this.#spans,
      origin: this.#origin,
      end: this.#end,
      rollouts: this.#rollouts.state(),
      traces: this.#traces.state(),
    };
  }

  /** Adds another builder's {@link state}, as if its batches had been added here after these. */
  merge(s: ReportState): void {
    if (s.stats !== null) this.#stats?.merge(s.stats);
    this.#anomalies.merge(s.anomalies);
    for (const x of s.services) this.#services.add(x);
    this.#rootedTraces += s.rootedTraces;
    for (const t of s.rootlessTraces) this.#rootlessTraces.add(t);
    this.#spans += s.spans;
    if (s.origin !== null && (this.#origin === null || s.origin < this.#origin)) this.#origin = s.origin;
    if (s.end !== null && (this.#end === null || s.end > this.#end)) this.#end = s.end;
    this.#rollouts.merge(s.rollouts);
    this.#traces.merge(s.traces);
  }

  /** The report data; `late` gives options known only once the read is over (they win over the constructor's). */
  finish(read: ReadStats | null, late: Pick<ReportDataOptions, 'inputs' | 'saturation'> = {}): ReportData {
    const rowKind = this.#rollouts.count > 0 ? 'rollout' : 'trace';
    const track = rowKind === 'rollout' ? this.#rollouts : this.#traces;
    const origin = this.#origin ?? 0n;
    const saturation = late.saturation ?? this.#options.saturation ?? buildSaturation([]);
    const sums = track.sums();
    const diagnosis = diagnosisSentence(sums.bottleneck.finish(saturation));
    const run = buildRunView({ starts: track.starts.view(), ends: track.ends.view() }, origin, this.#end ?? origin, saturation, diagnosis);
    const { rows, details, listing } = track.finish(origin);
    const split = sums.totals.finish();
    const anomalies = this.#anomalies.finish();
    // #stats is null exactly when the table was given
    const stats = (this.#options.stats ?? this.#stats!.finish()).groups
      .slice(0, MAX_STATS)
      .map((g) => ({ name: g.key, count: g.count, errors: g.errorCount, p50: g.p50, p95: g.p95, p99: g.p99, max: g.max, totalSelfMs: g.totalSelfMs }));
    return {
      type: 'gym_trace_report',
      generatedAt: (this.#options.generatedAt ?? new Date()).toISOString(),
      inputs: late.inputs ?? this.#options.inputs ?? [],
      rowKind,
      categories: TIME_CATEGORIES,
      categoryLabels: CATEGORY_LABEL,
      run,
      summary: {
        rollouts: this.#rollouts.count,
        traces: this.#rootedTraces + this.#rootlessTraces.size,
        spans: this.#spans,
        services: [...this.#services].sort(),
        start: this.#origin === null ? null : nsToIso(origin),
        end: this.#end === null ? null : nsToIso(this.#end),
        errorSpans: anomalies.counts.error_span,
        anomalies: anomalies.counts,
        malformedLines: read?.malformedLines ?? 0,
        timeSplit: { wallMs: split.totalWallMs, categories: Object.fromEntries(TIME_CATEGORIES.map((c) => [c, split.categories[c].totalMs])) as Record<TimeCategory, number> },
        statusCounts: { ...track.statusCounts },
      },
      listing,
      rows,
      details,
      detailLimit: this.#options.maxRollouts ?? 200,
      stats,
    };
  }
}

// A rollout is drawn from its outermost span (the collector's call around it when recorded).
function fromRollout(r: Rollout): RowItem {
  const root = outermostOf(r);
  return { id: r.rolloutId, traceId: r.traceId, rollout: r, root, roots: [root], nodes: null };
}

// A trace without rollouts: its first root carries the attribution; every root is drawn.
function fromTrace(t: Trace): RowItem {
  return { id: t.traceId, traceId: t.traceId, rollout: null, root: t.roots[0]!, roots: t.roots, nodes: [...t.nodes.values()] };
}
