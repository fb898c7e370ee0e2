/**
 * The run-level view of the report, computed ahead so the page only draws: rollouts over time
 * (in flight, started, finished), a histogram of rollout durations, event-loop utilization per
 * process over the run's time axis, memory over time when recorded, and the diagnosis sentence.
 * Every series is bounded in length whatever the size of the run.
 * @module
 */
import { METRIC } from '@gym/names';
import type { SaturationData, Sample } from '../analyze/saturation.js';

/** Times in ms from the run's start. */
export interface RunView {
  startMs: number;
  endMs: number;
  diagnosis: string;
  saturationRecorded: boolean;
  timeline: { binMs: number; inFlight: number[]; started: number[]; finished: number[] };
  durations: { binMs: number; counts: number[] };
  /** Per process: [startMs, endMs, utilization 0..1]. */
  utilization: Array<{ process: string; samples: Array<[number, number, number]> }>;
  /** Per series: [ms, bytes]; `what` says which metric it is. */
  memory: { what: string; series: Array<{ name: string; points: Array<[number, number]> }> };
}

const TIME_BINS = 120;
const DURATION_BINS = 24;
const MAX_SAMPLES = 240;

/** Rollout intervals (ns; `starts[i]` to `ends[i]`, typed arrays: a run of millions costs 16 bytes each) → the run view over [originNs, endNs]. */
export function buildRunView(intervals: { starts: BigInt64Array; ends: BigInt64Array }, originNs: bigint, endNs: bigint, saturation: SaturationData, diagnosis: string): RunView {
  const spanMs = Math.max(1e-3, Number(endNs - originNs) / 1e6);
  const binMs = spanMs / TIME_BINS;
  const started = new Array<number>(TIME_BINS).fill(0);
  const finished = new Array<number>(TIME_BINS).fill(0);
  const inFlight = new Array<number>(TIME_BINS).fill(0);
  const bin = (ms: number) => Math.min(TIME_BINS - 1, Math.max(0, Math.floor(ms / binMs)));
  let maxDur = 0;
  const { starts, ends } = intervals;
  for (let i = 0; i < starts.length; i++) {
    const s = Number(starts[i]! - originNs) / 1e6;
    const e = Number(ends[i]! - originNs) / 1e6;
    started[bin(s)]!++;
    finished[bin(e)]!++;
    // in flight at a bin's middle
    for (let b = bin(s); b <= bin(e); b++) {
      const mid = (b + 0.5) * binMs;
      if (mid >= s && mid < e) inFlight[b]!++;
    }
    maxDur = Math.max(maxDur, e - s);
  }
  const durBin = maxDur > 0 ? maxDur / DURATION_BINS : 1;
  const counts = new Array<number>(DURATION_BINS).fill(0);
  for (let i = 0; i < starts.length; i++) counts[Math.min(DURATION_BINS - 1, Math.floor(Number(ends[i]! - starts[i]!) / 1e6 / durBin))]!++;
  const rel = (ns: bigint) => Number(ns - originNs) / 1e6;
  const inRun = (s: Sample) => s.endNs >= originNs && s.startNs <= endNs;
  const utilization = saturation.processes
    .filter((p) => p.elu.some(inRun))
    .map((p) => ({ process: p.key, samples: thin(p.elu.filter(inRun)).map((s): [number, number, number] => [Math.max(0, rel(s.startNs)), Math.min(spanMs, rel(s.endNs)), s.value]) }));
  return {
    startMs: 0,
    endMs: spanMs,
    diagnosis,
    saturationRecorded: saturation.recorded,
    timeline: { binMs, inFlight, started, finished },
    durations: { binMs: durBin, counts },
    utilization,
    memory: memoryView(saturation, { from: originNs, to: endNs }, rel, spanMs),
  };
}

// The orchestrator's per-server samples when recorded, else each process's V8 heap. Every process
// with samples gets its line: one whose samples fall around a short run but not in it (a server
// exports its last gauges at shutdown, after the run's last span) is drawn from its nearest
// samples, held at the window's edges.
function memoryView(sat: SaturationData, window: { from: bigint; to: bigint }, rel: (ns: bigint) => number, spanMs: number): RunView['memory'] {
  const point = (s: Sample): [number, number] => [Math.min(spanMs, Math.max(0, rel(s.endNs))), s.value];
  const line = (samples: Sample[]) => thin(around(samples, window.from, window.to)).map(point);
  const servers = sat.memory.filter((m) => m.samples.length > 0);
  if (servers.length > 0) return { what: METRIC.SERVER_MEMORY_USAGE, series: servers.map((m) => ({ name: `${m.server} (${m.type})`, points: line(m.samples) })) };
  const heaps = sat.processes.filter((p) => p.heapUsed.length > 0);
  return { what: 'v8js.memory.heap.used', series: heaps.map((p) => ({ name: p.key, points: line(p.heapUsed) })) };
}

// The samples in the window [from, to], with the last one before it and the first one after it (samples are in time order).
function around(samples: Sample[], from: bigint, to: bigint): Sample[] {
  let first = -1;
  let last = -1;
  for (let i = 0; i < samples.length; i++) {
    if (samples[i]!.endNs < from || samples[i]!.startNs > to) continue;
    if (first === -1) first = i;
    last = i;
  }
  if (first !== -1) return samples.slice(Math.max(0, first - 1), last + 2);
  // none inside: the nearest on each side (all after the window: the first; all before it: the last)
  const next = samples.findIndex((x) => x.startNs > to);
  return next === -1 ? samples.slice(-1) : samples.slice(Math.max(0, next - 1), next + 1);
}

// Every k-th sample so a series never exceeds MAX_SAMPLES (the last one is always kept).
function thin<T>(xs: T[]): T[] {
  if (xs.length <= MAX_SAMPLES) return xs;
  const k = Math.ceil(xs.length / MAX_SAMPLES);
  return xs.filter((_, i) => i % k === 0 || i === xs.length - 1);
}
