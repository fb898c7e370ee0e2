/**
 * One kind of row of the report (rollouts, or traces when the run has none): its run-wide sums and
 * its bounded keepers, built batch by batch. A row is numbered by its position in the run, which
 * makes its key and settles the picker's ties; floating-point sums are kept per batch and added up
 * in batch order at the end. So tracks of consecutive parts of a run, merged in order
 * ({@link RowTrack.merge}), give what one track of the whole run gives, to the last bit, provided
 * the batches are cut in the same places.
 * @module
 */
import { attributeRollout, attributeTime } from '../analyze/attribution.js';
import { AttributionSums } from '../analyze/attribution-sums.js';
import type { AttributionSumsState } from '../analyze/attribution-sums.js';
import { AttributionTotals } from '../analyze/attribution-summary.js';
import { BottleneckAccumulator } from '../analyze/bottleneck.js';
import { BigInt64List } from '../analyze/number-lists.js';
import { verdictOf } from '../analyze/verdict.js';
import { countFrom } from '../assemble/assemble-traces.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { SpanNode } from '../assemble/trace-model.js';
import { isTruncated } from '../span-record.js';
import { buildDetail, hasError } from './report-detail.js';
import type { ReportDetail } from './report-detail.js';
import type { ReportData, ReportRow } from './report-data.js';
import { RowPicker } from './row-picker.js';
import type { PickerState } from './row-picker.js';

/** What a row is made from. */
export interface RowItem {
  id: string;
  traceId: string;
  rollout: Rollout | null;
  root: SpanNode;
  roots: SpanNode[];
  /** The spans of a trace row; a rollout row's are counted under its root when needed. */
  nodes: SpanNode[] | null;
}

/** A row as kept: its key, start offset and pick are known only at the end. */
type KeptRow = Omit<ReportRow, 'key' | 'startMs' | 'detail' | 'picked'> & { startNs: bigint };

type Status = ReportRow['status'];

/** The floating-point sums of one batch. */
type BatchSums = AttributionSumsState;

/** What a {@link RowTrack} holds, as structured-cloneable data (the intervals in typed arrays). */
export interface RowTrackState {
  count: number;
  statusCounts: Record<Status, number>;
  starts: BigInt64Array;
  ends: BigInt64Array;
  all: KeptRow[] | null;
  picker: PickerState<{ row: KeptRow; detail: ReportDetail }>;
  sums: BatchSums[];
}

const STATUSES: readonly Status[] = ['ok', 'error', 'incomplete', 'no_verify'];

/** One kind of row: its run-wide sums and its bounded keepers. */
export class RowTrack {
  readonly starts = new BigInt64List();
  readonly ends = new BigInt64List();
  readonly statusCounts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
  readonly #picker: RowPicker<{ row: KeptRow; detail: ReportDetail }>;
  readonly #maxSpans: number;
  readonly #maxRows: number;
  // every row while the run has at most maxRows of them (a row's position is its order); null past that
  #all: KeptRow[] | null = [];
  // a sum of floating-point numbers depends on the order it is added in: sums per batch, added up
  // in batch order, come out the same whichever thread summed which batch
  #sums: BatchSums[] = [];
  count = 0;

  constructor(maxRollouts: number, maxSpans: number, maxRows: number) {
    this.#picker = new RowPicker(maxRollouts);
    this.#maxSpans = maxSpans;
    this.#maxRows = maxRows;
  }

  /** Adds the rows of one batch, in their order. */
  addBatch(items: readonly RowItem[]): void {
    if (items.length === 0) return;
    const sums = new AttributionSums();
    for (const it of items) this.#add(it, sums);
    this.#sums.push(sums.state());
  }

  #add(it: RowItem, sums: AttributionSums): void {
    // every row's time split and causes go straight into the sums; the attribution itself is
    // built only for a row that gets a waterfall
    if (it.rollout === null) sums.add(it.root);
    else sums.addRollout(it.rollout);
    this.starts.push(it.root.span.startNs);
    this.ends.push(it.root.span.endNs);
    const nodes = it.nodes;
    const verdict = it.rollout === null ? null : verdictOf(it.rollout);
    const status = verdict?.status ?? (nodes === null ? 'ok' : hasError(nodes) ? 'error' : nodes.some((n) => !n.span.ended || isTruncated(n.span)) ? 'incomplete' : 'ok');
    this.statusCounts[status]++;
    const spans = nodes === null ? countFrom(it.roots) : nodes.length;
    const row: KeptRow = { id: it.id, traceId: it.traceId, startNs: it.root.span.startNs, durationMs: it.root.span.durationMs, reward: verdict?.reward ?? null, status, spans };
    const order = this.count++;
    if (this.#all !== null) {
      this.#all.push(row);
      if (this.#all.length > this.#maxRows) this.#all = null;
    }
    const maxSpans = this.#maxSpans;
    this.#picker.offer({
      order,
      identity: `${row.traceId}/${row.id}`,
      durationMs: row.durationMs,
      failure: status === 'error' ? 2 : status === 'incomplete' ? 1 : 0,
      build: () => ({ row, detail: buildDetail(it.roots, it.rollout === null ? attributeTime(it.root) : attributeRollout(it.rollout), maxSpans) }),
    });
  }

  /** The critical-path time split and the bottleneck sums over every row, added up in batch order. */
  sums(): { totals: AttributionTotals; bottleneck: BottleneckAccumulator } {
    const totals = new AttributionTotals();
    const bottleneck = new BottleneckAccumulator();
    for (const s of this.#sums) {
      totals.merge(s.totals);
      bottleneck.merge(s.bottleneck);
    }
    return { totals, bottleneck };
  }

  /** What this track holds (for {@link merge} in another thread); its typed arrays are views, not copies, as in `StatsAccumulator.state`. */
  state(): RowTrackState {
    return {
      count: this.count,
      statusCounts: this.statusCounts,
      starts: this.starts.view(),
      ends: this.ends.view(),
      all: this.#all,
      picker: this.#picker.state(),
      sums: this.#sums,
    };
  }

  /** Adds another track's {@link state}, as if its batches had been added here after these. */
  merge(s: RowTrackState): void {
    const offset = this.count;
    this.count += s.count;
    for (const k of STATUSES) this.statusCounts[k] += s.statusCounts[k];
    this.starts.pushAll(s.starts);
    this.ends.pushAll(s.ends);
    this.#all = this.#all !== null && s.all !== null && this.count <= this.#maxRows ? [...this.#all, ...s.all] : null;
    this.#picker.merge(s.picker, offset);
    this.#sums.push(...s.sums);
  }

  /** The listed rows (start times from `origin`), their waterfalls, and what the list holds. */
  finish(origin: bigint): Pick<ReportData, 'rows' | 'details' | 'listing'> {
    const details: Record<string, ReportDetail> = {};
    const picked = { failed: 0, slowest: 0, sample: 0 };
    const chosen = this.#picker.finish();
    const reasons = new Map<number, (typeof chosen)[number]['reason']>();
    for (const p of chosen) {
      details[keyOf(p.order)] = p.built.detail;
      picked[p.reason]++;
      reasons.set(p.order, p.reason);
    }
    // capped: the picked rows, slowest first (the order the page sorts them in anyway)
    const listed: Array<[number, KeptRow]> =
      this.#all?.map((r, i): [number, KeptRow] => [i, r]) ?? chosen.map((p): [number, KeptRow] => [p.order, p.built.row]).sort((a, b) => b[1].durationMs - a[1].durationMs);
    const rows = listed.map(([order, r]): ReportRow => ({
      key: keyOf(order),
      id: r.id,
      traceId: r.traceId,
      startMs: Number(r.startNs - origin) / 1e6,
      durationMs: r.durationMs,
      reward: r.reward,
      status: r.status,
      spans: r.spans,
      detail: reasons.has(order),
      picked: reasons.get(order) ?? null,
    }));
    return { rows, details, listing: { total: this.count, listed: rows.length, capped: this.#all === null, leftOut: this.count - rows.length, maxRows: this.#maxRows, picked } };
  }
}

// Unique within the report: rollout ids may repeat across runs, a row's position may not.
function keyOf(order: number): string {
  return `r${order}`;
}
