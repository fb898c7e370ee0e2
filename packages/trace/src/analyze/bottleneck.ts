/**
 * The bottleneck of one rollout or of a run: the single largest piece of critical-path time —
 * a category (model, tools, the agent's own code…) or one phase of one hop (the caller queue of
 * agent → model, the transit to a tool server…) — and the load of the processes involved over the
 * same window, which tells a busy event loop from a full pool or a slow wire. A caller whose event
 * loop was busy over the window also gets the `caller_loop` cause: its caller queue, connect and
 * return over all its calls, the waits for that one loop (a request not yet sent, a connection
 * whose callback has not run, an answer not yet read).
 * @module
 */
import type { Attribution, CriticalSpanShare } from './attribution.js';
import type { TimeCategory } from './categorize.js';
import type { HopPhase } from './hop-timeline.js';
import type { SaturationData } from './saturation.js';
import { isBusy, loadInWindow } from './saturation-window.js';
import type { ServiceLoad } from './saturation-window.js';

/**
 * What a piece of time was: a category, a hop phase between two services, or `caller_loop` — a
 * busy caller's caller queue, connect and return over all its calls.
 */
export type CauseKind = Exclude<TimeCategory, 'network' | 'collector_send' | 'collector_return'> | 'network' | 'caller_loop';

/** One candidate cause with its critical-path time summed over the attributions. */
export interface Cause {
  kind: CauseKind;
  ms: number;
  /** The process the time was spent in or waited in front of (caller for queue/connect/return, callee for transit). */
  from: string | null;
  /** The callee of a hop; null for categories and for a caller's queue (or loop) over all its calls. */
  to: string | null;
  /** The span owning most of the time, for categories (e.g. `gym.model.responses`). */
  spanName: string | null;
  /** True for the collector's hop around the rollout. */
  collector: boolean;
}

/** The bottleneck and its evidence. */
export interface Bottleneck {
  type: 'bottleneck';
  /** Rollouts the numbers cover. */
  rollouts: number;
  /** Summed wall time of those rollouts. */
  wallMs: number;
  /** The largest cause, or null when nothing was attributed. */
  cause: Cause | null;
  /** Every cause, largest first (at most 10). */
  causes: Cause[];
  /** Load per service over the window, busiest first. */
  loads: ServiceLoad[];
  /** False when the input held no saturation metrics at all. */
  saturationRecorded: boolean;
  window: { startNs: bigint; endNs: bigint };
}

/** The categories that are causes of their own, in the order they are added. `unaccounted` comes from the hops, which know the callee that left no span. */
export const CATEGORY_CAUSES: readonly TimeCategory[] = ['model', 'tools', 'verify', 'judge', 'seed', 'agent'];

/** What a category cause names of the span holding most of its time. */
export type SpanOfCause = Pick<CriticalSpanShare, 'name' | 'service'>;

/** Finds the bottleneck of `items` over their common window. */
export function findBottleneck(items: readonly Attribution[], saturation: SaturationData): Bottleneck {
  const acc = new BottleneckAccumulator();
  for (const a of items) acc.add(a);
  return acc.finish(saturation);
}

/** What a {@link BottleneckAccumulator} holds. */
export interface BottleneckState {
  causes: Cause[];
  loopWait: Array<[string, number]>;
  wallMs: number;
  items: number;
  start: bigint | null;
  end: bigint | null;
}

/** {@link findBottleneck} one attribution at a time, keeping sums per cause only. */
export class BottleneckAccumulator {
  // in the order first seen (ties keep it when sorted), found by kind, from, to and collector:
  // nested maps of the (shared) strings, not a key string made per call
  #causes: Cause[] = [];
  #index = new Map<CauseKind, Map<string | null, Map<string | null, [Cause | undefined, Cause | undefined]>>>();
  // per caller, its caller queue + connect + return over all its calls: on a busy caller, all three
  // wait for its event loop
  #loopWait = new Map<string, number>();
  #wallMs = 0;
  #items = 0;
  #start: bigint | null = null;
  #end: bigint | null = null;

  #cause(kind: CauseKind, from: string | null, to: string | null, spanName: string | null, collector: boolean, ms: number): void {
    if (ms <= 0) return;
    let byFrom = this.#index.get(kind);
    if (byFrom === undefined) this.#index.set(kind, (byFrom = new Map<string | null, Map<string | null, [Cause | undefined, Cause | undefined]>>()));
    let byTo = byFrom.get(from);
    if (byTo === undefined) byFrom.set(from, (byTo = new Map<string | null, [Cause | undefined, Cause | undefined]>()));
    let pair = byTo.get(to);
    if (pair === undefined) byTo.set(to, (pair = [undefined, undefined]));
    const slot = collector ? 1 : 0;
    const prev = pair[slot];
    if (prev !== undefined) prev.ms += ms;
    else this.#causes.push((pair[slot] = { kind, from, to, spanName, collector, ms })); // the key order of the JSON output
  }

  add(a: Attribution): void {
    this.addRoot(a.wallMs, a.startNs, a.endNs);
    for (const cat of CATEGORY_CAUSES) {
      const ms = a.categories[cat];
      if (ms <= 0) continue; // what #cause would drop: no search for its span
      this.addCategory(cat, ms, firstOfCategory(a.criticalSpans, cat), a.agentService);
    }
    for (const h of a.hops) for (const p in h.critical) this.addHopPhase(p as HopPhase, h.critical[p as HopPhase]!, h.fromService, h.toService, h.name, h.collector);
  }

  /**
   * The first part of {@link add} without an {@link Attribution}: one rollout (or root) of wall time
   * `wallMs` over [startNs, endNs]. Its causes follow: {@link addCategory} for each of
   * {@link CATEGORY_CAUSES}, then {@link addHopPhase} for each hop's critical phases.
   */
  addRoot(wallMs: number, startNs: bigint, endNs: bigint): void {
    this.#items++;
    this.#wallMs += wallMs;
    if (this.#start === null || startNs < this.#start) this.#start = startNs;
    if (this.#end === null || endNs > this.#end) this.#end = endNs;
  }

  /**
   * The critical time `ms` of `category` in one rollout, held mostly by the span `top` (the largest
   * critical span listed under that category; it is of no use when `ms` ≤ 0), in a rollout whose
   * agent is `agentService`.
   */
  addCategory(category: TimeCategory, ms: number, top: SpanOfCause | undefined, agentService: string): void {
    this.#cause(category as CauseKind, top?.service ?? (category === 'agent' ? agentService : null), null, top?.name ?? null, false, ms);
  }

  /** The critical time `ms` of one phase of one hop (`name`, from `from` to `to`) of a rollout. */
  addHopPhase(phase: HopPhase, ms: number, from: string, to: string, name: string, collector: boolean): void {
    const kind = phaseCause(phase);
    if (kind === null) return;
    this.#cause(kind, from, to, name, collector, ms);
    // a busy caller delays every call it makes: its queue is also counted over all its calls
    if (kind === 'caller_queue' && !collector) this.#cause(kind, from, null, null, false, ms);
    if ((kind === 'caller_queue' || kind === 'connect' || kind === 'return') && !collector) this.#loopWait.set(from, (this.#loopWait.get(from) ?? 0) + ms);
  }

  /** The sums so far, as plain data (for {@link BottleneckAccumulator.merge} in another thread). */
  state(): BottleneckState {
    return { causes: [...this.#causes], loopWait: [...this.#loopWait], wallMs: this.#wallMs, items: this.#items, start: this.#start, end: this.#end };
  }

  /** Adds another instance's sums, as if its attributions had been added here after these. */
  merge(s: BottleneckState): void {
    for (const c of s.causes) this.#cause(c.kind, c.from, c.to, c.spanName, c.collector, c.ms);
    for (const [from, ms] of s.loopWait) this.#loopWait.set(from, (this.#loopWait.get(from) ?? 0) + ms);
    this.#wallMs += s.wallMs;
    this.#items += s.items;
    if (s.start !== null && (this.#start === null || s.start < this.#start)) this.#start = s.start;
    if (s.end !== null && (this.#end === null || s.end > this.#end)) this.#end = s.end;
  }

  finish(saturation: SaturationData): Bottleneck {
    const causes = this.#causes;
    const window = { startNs: this.#start ?? 0n, endNs: this.#end ?? 0n };
    const loadMap = loadInWindow(saturation, window.startNs, window.endNs);
    // A busy loop holds back the sends (undici writes on a reused socket on a later turn of the loop,
    // a new socket's connect callback waits for it too) and the reading of the answers alike:
    // measured over real processes, the queue alone held about a third of the wait and the return,
    // counted per callee, named an idle callee.
    for (const [from, ms] of this.#loopWait) if (isBusy(loadMap.get(from))) this.#cause('caller_loop', from, null, null, false, ms);
    const sorted = causes.map((c) => ({ ...c })).sort((a, b) => b.ms - a.ms);
    const loads = [...loadMap.values()].sort((a, b) => (b.elu ?? -1) - (a.elu ?? -1));
    let cause = sorted[0] ?? null;
    // The queue over all of a caller's calls means its event loop only when that loop was busy;
    // otherwise each upstream has its own pool, and the fullest one is the answer.
    if (cause !== null && cause.kind === 'caller_queue' && cause.to === null && !isBusy(loadMap.get(cause.from ?? ''))) {
      const from = cause.from;
      cause = sorted.find((c) => c.kind === 'caller_queue' && c.from === from && c.to !== null) ?? cause;
    }
    return { type: 'bottleneck', rollouts: this.#items, wallMs: this.#wallMs, cause, causes: sorted.slice(0, 10), loads, saturationRecorded: saturation.recorded, window };
  }
}

function firstOfCategory(spans: readonly CriticalSpanShare[], category: string): CriticalSpanShare | undefined {
  for (const s of spans) if (s.category === category) return s;
  return undefined;
}

function phaseCause(p: HopPhase): CauseKind | null {
  switch (p) {
    case 'network_before':
    case 'network_after':
      return 'network';
    case 'no_server':
      return 'unaccounted';
    default:
      return p;
  }
}
