/**
 * What `gym trace top` knows about a run while it is written: rollouts done and failed, the ones
 * in flight with their last finished step, the slowest so far, and each process's event loop.
 * Spans are written when they end, so a rollout is "in flight" from its first finished span until
 * its `gym.rollout` span arrives. State is bounded: in-flight rollouts, a window of recently
 * finished ids (to ignore their late spans), and a few slowest.
 * @module
 */
import type { MetricPoint } from '../read/metric-points.js';
import { ATTR, SPAN } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';

/** The step a rollout last finished, from the span that ended. */
export type RolloutStep = 'seed' | 'model' | 'tool' | 'verify' | 'agent';

/** Steps in display order. */
export const ROLLOUT_STEPS: readonly RolloutStep[] = ['seed', 'model', 'tool', 'verify', 'agent'];

/** A finished rollout among the slowest. */
export interface SlowRollout {
  rolloutId: string;
  durationMs: number;
  failed: boolean;
  /** Unix ns of its end: of two as slow, the one that ended first is listed first. */
  endNs: bigint;
}

/** The last event-loop numbers of one process. */
export interface ProcessLoop {
  service: string;
  /** Event-loop utilization 0..1 of the last export. */
  elu: number | null;
  /** Event-loop delay p99 of the last export, ms. */
  delayP99Ms: number | null;
  /** Unix ns of the last point. */
  atNs: bigint;
}

/** A snapshot for the frame. */
export interface LiveSnapshot {
  spans: number;
  done: number;
  failed: number;
  inFlight: number;
  /** In-flight rollouts per last finished step (`null`: none yet besides their own start). */
  byStep: Record<RolloutStep, number>;
  /** Rollouts finished per second over the last {@link RATE_WINDOW_NS} of span time (or the run so far, when shorter). */
  perSecond: number;
  slowest: SlowRollout[];
  processes: ProcessLoop[];
  /** End of the latest span seen (unix ns), or null. */
  latestNs: bigint | null;
}

/** The window the rate is taken over (span time, not wall time: a backlog reads at its own pace). */
export const RATE_WINDOW_NS = 10_000_000_000n;

/** Finished rollouts listed among the slowest. */
export const SLOWEST_SHOWN = 5;
/** Finished rollout ids remembered, to fold in their late spans. */
export const RECENT_IDS = 200_000;

/** What a run's store already holds, summed up (`stored-run.ts`): {@link LiveRun.restore} starts from it. */
export interface StoredRunState {
  /** Spans besides the ones replayed through {@link LiveRun.span}. */
  spans: number;
  latestNs: bigint | null;
  done: number;
  failed: number;
  firstEndNs: bigint | null;
  /** Ends of the rollouts finished within {@link RATE_WINDOW_NS} of the last one, ascending. */
  recentEnds: bigint[];
  /** The last {@link RECENT_IDS} rollouts finished (id, failed), the oldest first. */
  recent: Array<[string, boolean]>;
  /** The slowest, the slowest first; at most {@link SLOWEST_SHOWN}. */
  slowest: SlowRollout[];
  processes: ProcessLoop[];
}

interface InFlight {
  step: RolloutStep | null;
  stepEndNs: bigint;
  error: boolean;
}

/** Folds spans and metric points into the live view's numbers. */
export class LiveRun {
  #spans = 0;
  #done = 0;
  #failed = 0;
  #inFlight = new Map<string, InFlight>();
  // recently finished rollouts and whether they failed: their late spans (another process's file
  // read after the agent's) can still turn them into failures
  #recent = new Map<string, boolean>();
  #ends: bigint[] = [];
  #slowest: SlowRollout[] = [];
  #loops = new Map<string, ProcessLoop>();
  #latest: bigint | null = null;
  #firstEnd: bigint | null = null;

  span(s: SpanRecord): void {
    this.#spans++;
    if (this.#latest === null || s.endNs > this.#latest) this.#latest = s.endNs;
    const rid = s.attributes[ATTR.ROLLOUT_ID];
    if (typeof rid !== 'string') return;
    const finished = this.#recent.get(rid);
    if (finished !== undefined) {
      if (!finished && s.status.code === 'ERROR') this.#markFailed(rid);
      return;
    }
    const state = this.#inFlight.get(rid);
    if (s.name === SPAN.ROLLOUT) {
      this.#finish(rid, s, state?.error === true || s.status.code === 'ERROR');
      return;
    }
    const f = state ?? { step: null, stepEndNs: 0n, error: false };
    if (state === undefined) this.#inFlight.set(rid, f);
    if (s.status.code === 'ERROR') f.error = true;
    const step = stepOf(s);
    if (step !== null && s.endNs >= f.stepEndNs) {
      f.step = step;
      f.stepEndNs = s.endNs;
    }
  }

  metric(p: MetricPoint): void {
    if (p.name !== ELU && p.name !== DELAY_P99) return;
    let loop = this.#loops.get(p.service);
    if (loop === undefined) this.#loops.set(p.service, (loop = { service: p.service, elu: null, delayP99Ms: null, atNs: 0n }));
    if (p.endNs < loop.atNs - 1_000_000_000n) return; // an older export read late
    if (p.endNs > loop.atNs) loop.atNs = p.endNs;
    if (p.value === null) return;
    if (p.name === ELU) loop.elu = p.value;
    else loop.delayP99Ms = p.value * 1000;
  }

  /** Starts from what a store holds: call it first, then replay the spans of the rollouts still in flight. */
  restore(state: StoredRunState): void {
    this.#spans = state.spans;
    this.#latest = state.latestNs;
    this.#done = state.done;
    this.#failed = state.failed;
    this.#firstEnd = state.firstEndNs;
    this.#ends = [...state.recentEnds];
    this.#recent = new Map(state.recent);
    this.#slowest = state.slowest.slice(0, SLOWEST_SHOWN);
    this.#loops = new Map(state.processes.map((p) => [p.service, { ...p }]));
  }

  snapshot(): LiveSnapshot {
    const byStep = Object.fromEntries(ROLLOUT_STEPS.map((s) => [s, 0])) as Record<RolloutStep, number>;
    for (const f of this.#inFlight.values()) if (f.step !== null) byStep[f.step]++;
    this.#dropOldEnds();
    const latest = this.#ends.at(-1);
    return {
      spans: this.#spans,
      done: this.#done,
      failed: this.#failed,
      inFlight: this.#inFlight.size,
      byStep,
      // over the window, or over the run so far while it is shorter (at least a second)
      perSecond: this.#ends.length / Math.max(1, Math.min(Number(RATE_WINDOW_NS), latest === undefined || this.#firstEnd === null ? 0 : Number(latest - this.#firstEnd)) / 1e9),
      slowest: [...this.#slowest],
      processes: [...this.#loops.values()].sort((a, b) => (b.elu ?? -1) - (a.elu ?? -1)),
      latestNs: this.#latest,
    };
  }

  #markFailed(rid: string): void {
    this.#recent.set(rid, true);
    this.#done--;
    this.#failed++;
    const slow = this.#slowest.find((r) => r.rolloutId === rid);
    if (slow !== undefined) slow.failed = true;
  }

  #finish(rid: string, s: SpanRecord, failed: boolean): void {
    this.#inFlight.delete(rid);
    this.#recent.set(rid, failed);
    // a Map iterates in insertion order: the oldest id goes first
    if (this.#recent.size > RECENT_IDS) this.#recent.delete(this.#recent.keys().next().value!);
    if (failed) this.#failed++;
    else this.#done++;
    this.#addEnd(s.endNs);
    if (this.#firstEnd === null || s.endNs < this.#firstEnd) this.#firstEnd = s.endNs;
    if (this.#slowest.length < SLOWEST_SHOWN || s.durationMs >= this.#slowest.at(-1)!.durationMs) {
      this.#slowest.push({ rolloutId: rid, durationMs: s.durationMs, failed, endNs: s.endNs });
      // the order the store's summary gives (stored-run.ts), whatever order the files are read in
      this.#slowest.sort((a, b) => b.durationMs - a.durationMs || (a.endNs < b.endNs ? -1 : a.endNs > b.endNs ? 1 : a.rolloutId < b.rolloutId ? -1 : a.rolloutId > b.rolloutId ? 1 : 0));
      this.#slowest.length = Math.min(this.#slowest.length, SLOWEST_SHOWN);
    }
  }

  // Ends stay sorted, and only the rate's window of them is kept: rollouts end out of order, and
  // a backlog of millions read before the first frame sorted the whole list at each late one.
  #addEnd(endNs: bigint): void {
    let lo = this.#ends.length;
    if (lo > 0 && endNs < this.#ends[lo - 1]!) {
      let hi = lo - 1;
      lo = 0;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.#ends[mid]! <= endNs) lo = mid + 1;
        else hi = mid;
      }
    }
    this.#ends.splice(lo, 0, endNs);
    if (this.#ends.length > 2 * WINDOW_ENDS_KEPT) this.#dropOldEnds();
  }

  #dropOldEnds(): void {
    const latest = this.#ends.at(-1);
    if (latest === undefined) return;
    const from = latest - RATE_WINDOW_NS;
    let n = 0;
    while (n < this.#ends.length && this.#ends[n]! < from) n++;
    if (n > 0) this.#ends.splice(0, n);
  }
}

// trimming the ends to the window costs a pass over them: done once they are twice this many
const WINDOW_ENDS_KEPT = 4096;

/** The event-loop metric of a process's utilization (0..1). */
export const ELU = 'nodejs.eventloop.utilization';
/** The event-loop metric of a process's delay p99 (seconds). */
export const DELAY_P99 = 'nodejs.eventloop.delay.p99';

// The step a finished span stands for: by route (SERVER), by URL path (CLIENT), by gym span name.
function stepOf(s: SpanRecord): RolloutStep | null {
  if (s.name === SPAN.VERIFY) return 'verify';
  if (s.name.startsWith(SPAN.MODEL_PREFIX)) return 'model';
  if (s.name === SPAN.AGENT_RESPONSES) return 'agent';
  const route = s.attributes[ATTR.HTTP_ROUTE];
  const url = s.attributes['url.full'];
  const path = typeof route === 'string' ? route : typeof url === 'string' ? pathOf(url) : null;
  if (path === null) return null;
  if (path === '/verify') return 'verify';
  if (path === '/seed_session') return 'seed';
  if (path.startsWith('/v1/')) return 'model';
  if (path === '/run' || path === '/aggregate_metrics') return null;
  return 'tool';
}

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}
