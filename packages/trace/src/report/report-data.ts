/**
 * The data behind the HTML report, built from loaded telemetry with the existing analyses
 * (attribution, span tree, stats, anomalies). Plain JSON: embedded in the page as-is.
 * @module
 */
import { findAnomalies } from '../analyze/anomalies.js';
import type { AnomalyKind } from '../analyze/anomalies.js';
import { attributeRollout, attributeTime } from '../analyze/attribution.js';
import { summarizeAttributions } from '../analyze/attribution-summary.js';
import { findBottleneck } from '../analyze/bottleneck.js';
import { buildSaturation } from '../analyze/saturation.js';
import type { SaturationData } from '../analyze/saturation.js';
import { verdictOf } from '../analyze/verdict.js';
import { CATEGORY_LABEL } from '../render/category-labels.js';
import { diagnosisSentence } from '../render/diagnosis.js';
import { TIME_CATEGORIES } from '../analyze/categorize.js';
import type { TimeCategory } from '../analyze/categorize.js';
import { computeStats } from '../analyze/stats.js';
import { outermostOf, subtree } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { Trace, TraceSet } from '../assemble/trace-model.js';
import type { ReadStats } from '../read/read-stats.js';
import { nsToIso } from '../read/time.js';
import { isTruncated } from '../span-record.js';
import { buildDetail, hasError } from './report-detail.js';
import type { ReportDetail } from './report-detail.js';
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
  };
  rows: ReportRow[];
  /** Waterfalls of at most `detailLimit` rows, by row key. */
  details: Record<string, ReportDetail>;
  detailLimit: number;
  stats: ReportStat[];
  /** Rollout evidence (`--evidence`) by row key; absent without it. */
  evidence?: Record<string, RolloutEvidence>;
}

/** Options of {@link buildReportData}. */
export interface ReportDataOptions {
  /** Rows with a full waterfall at most (errors first, then slowest). Default 200. */
  maxRollouts?: number;
  /** Spans per waterfall at most. Default 1000. */
  maxSpans?: number;
  inputs?: string[];
  /** Default: now. */
  generatedAt?: Date;
  /** Process saturation read with the spans (default: none recorded). */
  saturation?: SaturationData;
}

const MAX_STATS = 1000;

/** Builds the report data; summary rows for every rollout, span detail for the bounded subset. */
export function buildReportData(set: TraceSet, rollouts: readonly Rollout[], read: ReadStats | null, options: ReportDataOptions = {}): ReportData {
  const limit = options.maxRollouts ?? 200;
  const traces = [...set.traces.values()];
  const origin = traces.reduce<bigint | null>((m, t) => (m === null || t.startNs < m ? t.startNs : m), null) ?? 0n;
  const end = traces.reduce<bigint | null>((m, t) => (m === null || t.endNs > m ? t.endNs : m), null);
  const items = rollouts.length > 0 ? rollouts.map(fromRollout) : traces.map(fromTrace);
  const attributions = items.map((it) => (it.rollout === null ? attributeTime(it.root) : attributeRollout(it.rollout)));
  const rows: ReportRow[] = items.map((it, i) => {
    const nodes = it.nodes;
    const verdict = it.rollout === null ? null : verdictOf(it.rollout);
    const status = verdict?.status ?? (hasError(nodes) ? 'error' : nodes.some((n) => !n.span.ended || isTruncated(n.span)) ? 'incomplete' : 'ok');
    return { key: `r${i}`, id: it.id, traceId: it.traceId, startMs: Number(it.root.span.startNs - origin) / 1e6, durationMs: it.root.span.durationMs, reward: verdict?.reward ?? null, status, spans: nodes.length, detail: false };
  });
  const saturation = options.saturation ?? buildSaturation([]);
  const diagnosis = diagnosisSentence(findBottleneck(attributions, saturation));
  const run = buildRunView(items.map((it) => it.root.span), origin, end ?? origin, saturation, diagnosis);
  // Errors first, then the slowest: the rollouts someone opening the report most likely wants.
  const chosen = rows.map((r, i) => i).sort((a, b) => Number(rows[b]!.status === 'error') - Number(rows[a]!.status === 'error') || rows[b]!.durationMs - rows[a]!.durationMs).slice(0, Math.max(0, limit));
  const details: Record<string, ReportDetail> = {};
  for (const i of chosen) {
    rows[i]!.detail = true;
    details[rows[i]!.key] = buildDetail(items[i]!.roots, attributions[i]!, options.maxSpans ?? 1000);
  }
  const split = summarizeAttributions(attributions);
  const anomalies = findAnomalies(set, rollouts, { maxPerKind: 0 });
  const stats = computeStats(set, rollouts).groups.slice(0, MAX_STATS).map((g) => ({ name: g.key, count: g.count, errors: g.errorCount, p50: g.p50, p95: g.p95, p99: g.p99, max: g.max, totalSelfMs: g.totalSelfMs }));
  return {
    type: 'gym_trace_report',
    generatedAt: (options.generatedAt ?? new Date()).toISOString(),
    inputs: options.inputs ?? [],
    rowKind: rollouts.length > 0 ? 'rollout' : 'trace',
    categories: TIME_CATEGORIES,
    categoryLabels: CATEGORY_LABEL,
    run,
    summary: {
      rollouts: rollouts.length,
      traces: set.traces.size,
      spans: set.spanCount,
      services: [...new Set(traces.flatMap((t) => t.services))].sort(),
      start: traces.length === 0 ? null : nsToIso(origin),
      end: end === null ? null : nsToIso(end),
      errorSpans: anomalies.counts.error_span,
      anomalies: anomalies.counts,
      malformedLines: read?.malformedLines ?? 0,
      timeSplit: { wallMs: split.totalWallMs, categories: Object.fromEntries(TIME_CATEGORIES.map((c) => [c, split.categories[c].totalMs])) as Record<TimeCategory, number> },
    },
    rows,
    details,
    detailLimit: limit,
    stats,
  };
}

interface Item {
  id: string;
  traceId: string;
  rollout: Rollout | null;
  root: Rollout['node'];
  roots: Array<Rollout['node']>;
  nodes: Array<Rollout['node']>;
}

// A rollout is drawn from its outermost span (the collector's call around it when recorded).
function fromRollout(r: Rollout): Item {
  const root = outermostOf(r);
  return { id: r.rolloutId, traceId: r.traceId, rollout: r, root, roots: [root], nodes: subtree(root) };
}

// A trace without rollouts: its first root carries the attribution; every root is drawn.
function fromTrace(t: Trace): Item {
  return { id: t.traceId, traceId: t.traceId, rollout: null, root: t.roots[0]!, roots: t.roots, nodes: [...t.nodes.values()] };
}
