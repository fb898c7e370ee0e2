/**
 * How loaded each service was over a time window (a rollout, or the whole run): event-loop
 * utilization weighted by how much of the window each sample covers, the worst event-loop delay
 * p99 among overlapping samples and how much of the window had a slow one, and the share of the
 * window spent in GC.
 * @module
 */
import type { ProcessSaturation, SaturationData, Sample } from './saturation.js';

/** One service's load over a window; null fields were not recorded for the window. */
export interface ServiceLoad {
  service: string;
  /** Processes of the service with samples over the window. */
  processes: number;
  /** Mean event-loop utilization (0..1), averaged over the service's processes. */
  elu: number | null;
  /** Largest event-loop delay p99 of an overlapping sample, ms. */
  delayP99Ms: number | null;
  /**
   * Share of the window (0..1) covered by samples whose delay p99 reached {@link BUSY_DELAY_P99_MS},
   * averaged over processes.
   */
  slowDelayShare: number | null;
  /** Share of the window spent in GC (0..1), averaged over processes. */
  gcShare: number | null;
}

/** Thresholds of "busy": the event loop had little idle time, or callbacks waited long. */
export const BUSY_ELU = 0.7;
export const BUSY_DELAY_P99_MS = 100;
/**
 * The share of the window that must have had such a delay: one stall (a cold handler's first call,
 * a process the host left waiting) makes one slow sample, not a busy loop over a run.
 */
export const BUSY_DELAY_SHARE = 0.25;
/** Below this the loop had time to spare. */
export const IDLE_ELU = 0.5;

/** Loads per service over [startNs, endNs]. */
export function loadInWindow(data: SaturationData, startNs: bigint, endNs: bigint): Map<string, ServiceLoad> {
  const per = new Map<string, { procs: number; elu: number[]; p99: number | null; slow: number[]; gc: number[] }>();
  for (const p of data.processes) {
    const elu = weightedMean(p.elu, startNs, endNs);
    const p99 = maxOverlapping(p.delayP99, startNs, endNs);
    const slow = coveredShare(p.delayP99, startNs, endNs, BUSY_DELAY_P99_MS / 1000);
    const gc = gcShare(p, startNs, endNs);
    if (elu === null && p99 === null && gc === null) continue;
    let acc = per.get(p.service);
    if (acc === undefined) per.set(p.service, (acc = { procs: 0, elu: [], p99: null, slow: [], gc: [] }));
    acc.procs++;
    if (elu !== null) acc.elu.push(elu);
    if (p99 !== null) acc.p99 = Math.max(acc.p99 ?? 0, p99 * 1000);
    if (slow !== null) acc.slow.push(slow);
    if (gc !== null) acc.gc.push(gc);
  }
  const out = new Map<string, ServiceLoad>();
  for (const [service, a] of per) out.set(service, { service, processes: a.procs, elu: mean(a.elu), delayP99Ms: a.p99, slowDelayShare: mean(a.slow), gcShare: mean(a.gc) });
  return out;
}

/**
 * True when the service's loop was busy by {@link BUSY_ELU}, or had a delay p99 of
 * {@link BUSY_DELAY_P99_MS} over {@link BUSY_DELAY_SHARE} of the window.
 */
export function isBusy(load: ServiceLoad | undefined): boolean {
  if (load === undefined) return false;
  return (load.elu !== null && load.elu >= BUSY_ELU) || slowDelays(load);
}

/** True when the service's loop was recorded and had time to spare. */
export function isIdle(load: ServiceLoad | undefined): boolean {
  if (load === undefined || load.elu === null) return false;
  return load.elu < IDLE_ELU && !slowDelays(load);
}

function slowDelays(load: ServiceLoad): boolean {
  return load.slowDelayShare !== null && load.slowDelayShare >= BUSY_DELAY_SHARE;
}

function overlap(s: Sample, a: bigint, b: bigint): bigint {
  const lo = s.startNs > a ? s.startNs : a;
  const hi = s.endNs < b ? s.endNs : b;
  if (hi > lo) return hi - lo;
  // a sample with no length (first export) counts when its instant falls in the window
  return s.startNs === s.endNs && s.endNs >= a && s.endNs <= b ? 1n : 0n;
}

function weightedMean(samples: Sample[], a: bigint, b: bigint): number | null {
  let w = 0;
  let sum = 0;
  for (const s of samples) {
    const o = Number(overlap(s, a, b));
    if (o <= 0) continue;
    w += o;
    sum += o * s.value;
  }
  return w > 0 ? sum / w : null;
}

// The part of the window, among the samples covering it, covered by samples of at least `atLeast`.
function coveredShare(samples: Sample[], a: bigint, b: bigint, atLeast: number): number | null {
  let all = 0n;
  let over = 0n;
  for (const s of samples) {
    const o = overlap(s, a, b);
    if (o <= 0n) continue;
    all += o;
    if (s.value >= atLeast) over += o;
  }
  return all > 0n ? Number(over) / Number(all) : null;
}

function maxOverlapping(samples: Sample[], a: bigint, b: bigint): number | null {
  let m: number | null = null;
  for (const s of samples) if (overlap(s, a, b) > 0n && (m === null || s.value > m)) m = s.value;
  return m;
}

// GC seconds of each sample, counted in proportion to the part of its interval inside the window.
function gcShare(p: ProcessSaturation, a: bigint, b: bigint): number | null {
  if (p.gcSeconds.length === 0 || b <= a) return null;
  let covered = 0n;
  let gc = 0;
  for (const s of p.gcSeconds) {
    const o = overlap(s, a, b);
    if (o <= 0n) continue;
    const len = s.endNs - s.startNs;
    covered += o;
    gc += len > 0n ? (s.value * Number(o)) / Number(len) : s.value;
  }
  if (covered === 0n) return null;
  return Math.min(1, gc / (Number(covered) / 1e9));
}

function mean(xs: number[]): number | null {
  return xs.length === 0 ? null : xs.reduce((x, y) => x + y, 0) / xs.length;
}
