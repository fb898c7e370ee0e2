/**
 * Per-group span statistics: counts, errors, exact percentiles, total and self time, share of
 * rollout wall time. Truncated spans (`nemo.span.truncated=true`) are excluded: their end is the
 * shutdown time, not the work's.
 * @module
 */
import { outermostOf } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { SpanNode, TraceSet } from '../assemble/trace-model.js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { isTruncated, MAX_EXACT_NS, nsToMs } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';
import { summarizeDurations } from './percentiles.js';
import { BigInt64List, Float64List, joinFloat64 } from './number-lists.js';
import { selfTimeNs, selfTimeNumber } from './self-time.js';

/** How spans are grouped: by name, by service, or by the value of one attribute. */
export type StatsGrouping = { type: 'name' } | { type: 'service' } | { type: 'attribute'; key: string };

/** One group's numbers. Durations in ms. */
export interface StatsGroup {
  key: string;
  count: number;
  errorCount: number;
  errorRate: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  totalMs: number;
  totalSelfMs: number;
  /** `totalSelfMs` ÷ the summed wall time of all rollouts; null when there are no rollouts. */
  shareOfRolloutWall: number | null;
}

/** Result of {@link computeStats}. Groups sorted by total self time, largest first. */
export interface SpanStats {
  type: 'span_stats';
  by: StatsGrouping;
  groups: StatsGroup[];
  rolloutCount: number;
  rolloutWallMs: number;
  truncatedExcluded: number;
  /** Spans without the grouping attribute (only for `attribute:<key>`). */
  ungrouped: number;
}

/**
 * Parses `name`, `service` or `attribute:<key>`.
 * @throws TraceUserError `GYM_TRACE_BAD_OPTION` for anything else.
 */
export function parseGrouping(spec: string): StatsGrouping {
  if (spec === 'name' || spec === 'service') return { type: spec };
  if (spec.startsWith('attribute:') && spec.length > 'attribute:'.length) return { type: 'attribute', key: spec.slice('attribute:'.length) };
  throw new TraceUserError(TRACE_ERROR_CODES.badOption, `Unknown --by '${spec}'. Use name, service or attribute:<key> (e.g. attribute:http.route).`);
}

/** Computes per-group statistics over every span of `set`. */
export function computeStats(set: TraceSet, rollouts: readonly Rollout[], by: StatsGrouping = { type: 'name' }): SpanStats {
  const acc = new StatsAccumulator(by);
  acc.add(set, rollouts);
  return acc.finish();
}

interface GroupAcc {
  durations: Float64List;
  /**
   * Durations of merged states, kept as they came (another thread's, transferred): joined only in
   * the copy that percentiles are selected in, so the main thread never holds them twice.
   */
  merged: Float64Array[];
  errors: number;
  /** Summed durations in ns, exact as {@link ExactNs} (ms then: the SQL path's sums are exact too). */
  total: ExactNs;
  /** Self time in ns. */
  self: ExactNs;
}

const EXACT = Number.MAX_SAFE_INTEGER;

/** A sum of ns: `big` plus `part`, a number kept under 2^53 so that its sums are exact. */
interface ExactNs {
  big: bigint;
  part: number;
}

// `ns` more (an integer of at most 2^53), summed in a number while that stays exact
function addNs(sum: ExactNs, ns: number): void {
  if (sum.part + ns > EXACT) {
    sum.big += BigInt(sum.part);
    sum.part = ns;
  } else sum.part += ns;
}

function valueOf(sum: ExactNs): bigint {
  return sum.big + BigInt(sum.part);
}

// every duration of `a` in one array: a view of its own list when nothing was merged in
function durationsOf(a: GroupAcc): Float64Array {
  return a.merged.length === 0 ? a.durations.view() : joinFloat64([a.durations.view(), ...a.merged]);
}

/** A span outside rollouts whose children may be read with another set: its self time waits for them. */
interface PendingSelf {
  group: GroupAcc;
  startNs: bigint;
  endNs: bigint;
  /** Start and end of each child, flat. */
  children: bigint[];
}

/** What a {@link StatsAccumulator} holds, as plain data (durations in typed arrays). */
export interface StatsState {
  groups: Array<{ key: string; durations: Float64Array; errors: number; totalNs: bigint; selfNs: bigint }>;
  truncatedExcluded: number;
  ungrouped: number;
  rolloutCount: number;
  rolloutWallNs: bigint;
  pending: Array<{ spanId: string; key: string; startNs: bigint; endNs: bigint; children: bigint[] }>;
  boundary: Array<[string, BigInt64Array]>;
}

/**
 * {@link computeStats} over trace sets read one after the other (a run read in partitions).
 * `shared` names the spans outside rollouts: a rollout's outermost span may sit in another set
 * than its parent (`gym.job`), so those parents' self time is computed once every set is in.
 */
export class StatsAccumulator {
  #by: StatsGrouping;
  #acc = new Map<string, GroupAcc>();
  #truncatedExcluded = 0;
  #ungrouped = 0;
  #rolloutCount = 0;
  #rolloutWall: ExactNs = { big: 0n, part: 0 };
  #pending = new Map<string, PendingSelf>();
  #boundary = new Map<string, BigInt64List>();

  constructor(by: StatsGrouping = { type: 'name' }) {
    this.#by = by;
  }

  add(set: TraceSet, rollouts: readonly Rollout[], shared: ReadonlySet<string> | null = null): void {
    this.#shared = shared;
    // forEach, not `for … of nodes.values()`: V8 makes an iterator result per span for the latter
    for (const trace of set.traces.values()) trace.nodes.forEach(this.#addNode);
    this.#shared = null;
    this.#rolloutCount += rollouts.length;
    // a rollout's wall as `why` counts it: from the collector's call around it when that is in the input
    for (const r of rollouts) addDuration(this.#rolloutWall, outermostOf(r).span);
  }

  // the `shared` of the set being added
  #shared: ReadonlySet<string> | null = null;

  readonly #addNode = (node: SpanNode): void => {
    const shared = this.#shared;
    const s = node.span;
    // a child of a span of another set: its interval counts against that span's self time
    if (shared !== null && node.parent === null && s.parentSpanId !== null && shared.has(s.parentSpanId)) {
      let b = this.#boundary.get(s.parentSpanId);
      if (b === undefined) this.#boundary.set(s.parentSpanId, (b = new BigInt64List()));
      b.push(s.startNs);
      b.push(s.endNs);
    }
    if (isTruncated(s)) {
      this.#truncatedExcluded++;
      return;
    }
    const key = keyOf(s, this.#by);
    if (key === null) {
      this.#ungrouped++;
      return;
    }
    const a = this.#group(key);
    a.durations.push(s.durationMs);
    if (s.status.code === 'ERROR') a.errors++;
    addDuration(a.total, s);
    if (shared !== null && shared.has(s.spanId)) this.#pending.set(s.spanId, { group: a, startNs: s.startNs, endNs: s.endNs, children: node.children.flatMap((c) => [c.span.startNs, c.span.endNs]) });
    else {
      const self = selfTimeNumber(node);
      if (self !== null) addNs(a.self, self);
      else a.self.big += selfTimeNs(node);
    }
  };

  /**
   * What has been added so far, as plain data: another thread's accumulator {@link merge}s it.
   * The typed arrays are views of this accumulator's storage, not copies (tens of MB at 20M
   * spans): they stay right while more is added, but transferring them detaches that storage, so
   * only a thread that is done with the accumulator transfers them (`batch-worker.ts`).
   */
  state(): StatsState {
    const keyOf = new Map<GroupAcc, string>();
    const groups: StatsState['groups'] = [];
    for (const [key, a] of this.#acc) {
      keyOf.set(a, key);
      groups.push({ key, durations: durationsOf(a), errors: a.errors, totalNs: valueOf(a.total), selfNs: valueOf(a.self) });
    }
    const pending = [...this.#pending].map(([spanId, p]) => ({ spanId, key: keyOf.get(p.group)!, startNs: p.startNs, endNs: p.endNs, children: p.children }));
    const boundary = [...this.#boundary].map(([id, b]): [string, BigInt64Array] => [id, b.view()]);
    return { groups, truncatedExcluded: this.#truncatedExcluded, ungrouped: this.#ungrouped, rolloutCount: this.#rolloutCount, rolloutWallNs: valueOf(this.#rolloutWall), pending, boundary };
  }

  /** Adds another accumulator's {@link state}, as if its sets had been added here after these. */
  merge(s: StatsState): void {
    for (const g of s.groups) {
      const a = this.#group(g.key);
      if (g.durations.length > 0) a.merged.push(g.durations);
      a.errors += g.errors;
      a.total.big += g.totalNs;
      a.self.big += g.selfNs;
    }
    this.#truncatedExcluded += s.truncatedExcluded;
    this.#ungrouped += s.ungrouped;
    this.#rolloutCount += s.rolloutCount;
    this.#rolloutWall.big += s.rolloutWallNs;
    for (const p of s.pending) this.#pending.set(p.spanId, { group: this.#group(p.key), startNs: p.startNs, endNs: p.endNs, children: p.children });
    for (const [id, values] of s.boundary) {
      let b = this.#boundary.get(id);
      if (b === undefined) this.#boundary.set(id, (b = new BigInt64List()));
      b.pushAll(values);
    }
  }

  #group(key: string): GroupAcc {
    let a = this.#acc.get(key);
    if (a === undefined) this.#acc.set(key, (a = { durations: new Float64List(), merged: [], errors: 0, total: { big: 0n, part: 0 }, self: { big: 0n, part: 0 } }));
    return a;
  }

  finish(): SpanStats {
    for (const [spanId, p] of this.#pending) p.group.self.big += selfOfIntervals(p.startNs, p.endNs, p.children, this.#boundary.get(spanId)?.view());
    this.#pending.clear();
    const rolloutWallMs = nsToMs(valueOf(this.#rolloutWall));
    const groups: StatsGroup[] = [];
    for (const [key, a] of this.#acc) {
      const d = summarizeDurations(a.durations.view(), a.merged);
      const totalSelfMs = nsToMs(valueOf(a.self));
      groups.push({
        key,
        count: d.count,
        errorCount: a.errors,
        errorRate: a.errors / d.count,
        p50: d.p50,
        p90: d.p90,
        p95: d.p95,
        p99: d.p99,
        max: d.max,
        totalMs: nsToMs(valueOf(a.total)),
        totalSelfMs,
        shareOfRolloutWall: rolloutWallMs > 0 ? totalSelfMs / rolloutWallMs : null,
      });
    }
    groups.sort((x, y) => y.totalSelfMs - x.totalSelfMs || (x.key < y.key ? -1 : 1));
    return { type: 'span_stats', by: this.#by, groups, rolloutCount: this.#rolloutCount, rolloutWallMs, truncatedExcluded: this.#truncatedExcluded, ungrouped: this.#ungrouped };
  }
}

// A span's duration in ns (at most 2^53 ns a span, else summed in bigints)
function addDuration(sum: ExactNs, s: SpanRecord): void {
  const ns = s.endNs - s.startNs;
  if (ns <= MAX_EXACT_NS) addNs(sum, Number(ns));
  else sum.big += ns;
}

// Self time from flat [start, end, start, end, …] child intervals, as `selfTimeNs` computes it
// (typed arrays: a run's gym.job has one child per rollout).
function selfOfIntervals(startNs: bigint, endNs: bigint, own: readonly bigint[], more: BigInt64Array | undefined): bigint {
  if (endNs <= startNs) return 0n;
  const flat = new BigInt64Array(own.length + (more?.length ?? 0));
  flat.set(own);
  if (more !== undefined) flat.set(more, own.length);
  const order = new Uint32Array(flat.length / 2).map((_, i) => i);
  order.sort((x, y) => (flat[2 * x]! < flat[2 * y]! ? -1 : flat[2 * x]! > flat[2 * y]! ? 1 : 0));
  let covered = 0n;
  let cursor = startNs;
  for (const i of order) {
    const cs = flat[2 * i]!;
    const ce = flat[2 * i + 1]!;
    const s = cs > cursor ? cs : cursor;
    const e = ce < endNs ? ce : endNs;
    if (e > s) {
      covered += e - s;
      cursor = e;
    }
  }
  return endNs - startNs - covered;
}

function keyOf(s: SpanRecord, by: StatsGrouping): string | null {
  switch (by.type) {
    case 'name':
      return s.name;
    case 'service':
      return s.service;
    case 'attribute': {
      const v = s.attributes[by.key];
      if (v === undefined || v === null) return null;
      return typeof v === 'string' ? v : JSON.stringify(v);
    }
  }
}
