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

const SLOWEST = 5;
const RECENT_IDS = 200_000;

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

  snapshot(): LiveSnapshot {
    const byStep = Object.fromEntries(ROLLOUT_STEPS.map((s) => [s, 0])) as Record<RolloutStep, number>;
    for (const f of this.#inFlight.values()) if (f.step !== null) byStep[f.step]++;
    const latest = this.#ends.at(-1);
    const from = latest === undefined ? 0n : latest - RATE_WINDOW_NS;
    while (this.#ends.length > 0 && this.#ends[0]! < from) this.#ends.shift();
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
    this.#ends.push(s.endNs);
    if (this.#firstEnd === null || s.endNs < this.#firstEnd) this.#firstEnd = s.endNs;
    if (this.#ends.length > 1 && s.endNs < this.#ends[this.#ends.length - 2]!) this.#ends.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (this.#slowest.length < SLOWEST || s.durationMs > this.#slowest.at(-1)!.durationMs) {
      this.#slowest.push({ rolloutId: rid, durationMs: s.durationMs, failed });
      this.#slowest.sort((a, b) => b.durationMs - a.durationMs);
      this.#slowest.length = Math.min(this.#slowest.length, SLOWEST);
    }
  }
}

const ELU = 'nodejs.eventloop.utilization';
const DELAY_P99 = 'nodejs.eventloop.delay.p99';

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
