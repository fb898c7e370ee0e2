/**
 * Process saturation over time, from the metric points every gym process writes (OpenTelemetry
 * runtime semantic-convention names): event-loop utilization and delay, GC time, heap, and the
 * orchestrator's per-server memory samples. Each point is turned into a sample over the interval
 * it describes — from the previous export of the same series (or the point's own start) to its end
 * — because cumulative gauges carry the process start as their start time.
 * @module
 */
import type { MetricPoint } from '../read/metric-points.js';

/** A value over [startNs, endNs]. */
export interface Sample {
  startNs: bigint;
  endNs: bigint;
  value: number;
}

/** The saturation series of one process (one resource). */
export interface ProcessSaturation {
  /** `service.name`, plus `#<pid>` when a service runs several processes. */
  key: string;
  service: string;
  pid: string | null;
  /** `nodejs.eventloop.utilization`, 0..1. */
  elu: Sample[];
  /** `nodejs.eventloop.delay.p99`, seconds. */
  delayP99: Sample[];
  /** `nodejs.eventloop.delay.max`, seconds. */
  delayMax: Sample[];
  /** Seconds of GC (`v8js.gc.duration` summed over GC types) within each sample's interval. */
  gcSeconds: Sample[];
  /** `v8js.memory.heap.used` summed over heap spaces, bytes. */
  heapUsed: Sample[];
}

/** Memory of one server's process tree as the orchestrator sampled it (`gym.server.memory.usage`). */
export interface ServerMemory {
  server: string;
  /** `rss` or `pss`. */
  type: string;
  samples: Sample[];
}

/** Everything the analyses read about saturation. */
export interface SaturationData {
  processes: ProcessSaturation[];
  memory: ServerMemory[];
  /** `gym.host.memory.usage`, bytes. */
  hostMemory: Sample[];
  /** False when the input held no saturation metric at all. */
  recorded: boolean;
}

const M = {
  elu: 'nodejs.eventloop.utilization',
  p99: 'nodejs.eventloop.delay.p99',
  max: 'nodejs.eventloop.delay.max',
  gc: 'v8js.gc.duration',
  heap: 'v8js.memory.heap.used',
  serverMemory: 'gym.server.memory.usage',
  hostMemory: 'gym.host.memory.usage',
} as const;

/** Groups the points into per-process and per-server series. */
export function buildSaturation(points: readonly MetricPoint[]): SaturationData {
  // series: process → metric → attribute set → points
  const byResource = new Map<object, Map<string, Map<string, MetricPoint[]>>>();
  const pidsPerService = new Map<string, Set<string>>();
  const memory = new Map<string, { server: string; type: string; points: MetricPoint[] }>();
  const host: MetricPoint[] = [];
  for (const p of points) {
    if (p.name === M.serverMemory) {
      const server = String(p.attributes['nemo.gym.server.name'] ?? p.service);
      const type = String(p.attributes['memory.type'] ?? 'rss');
      const k = `${server}\u0000${type}`;
      let m = memory.get(k);
      if (m === undefined) memory.set(k, (m = { server, type, points: [] }));
      m.points.push(p);
      continue;
    }
    if (p.name === M.hostMemory) {
      host.push(p);
      continue;
    }
    let metrics = byResource.get(p.resource);
    if (metrics === undefined) byResource.set(p.resource, (metrics = new Map<string, Map<string, MetricPoint[]>>()));
    let sets = metrics.get(p.name);
    if (sets === undefined) metrics.set(p.name, (sets = new Map<string, MetricPoint[]>()));
    const attrKey = JSON.stringify(p.attributes);
    let list = sets.get(attrKey);
    if (list === undefined) sets.set(attrKey, (list = []));
    list.push(p);
    const pid = pidOf(p);
    if (pid !== null) {
      let pids = pidsPerService.get(p.service);
      if (pids === undefined) pidsPerService.set(p.service, (pids = new Set()));
      pids.add(pid);
    }
  }
  const processes: ProcessSaturation[] = [];
  for (const metrics of byResource.values()) {
    const any = [...metrics.values()][0]!.values().next().value![0]!;
    const pid = pidOf(any);
    const several = (pidsPerService.get(any.service)?.size ?? 0) > 1;
    const gauges = (name: string) => mergeSum([...(metrics.get(name)?.values() ?? [])].map((ps) => gaugeSamples(ps)));
    processes.push({
      key: several && pid !== null ? `${any.service}#${pid}` : any.service,
      service: any.service,
      pid,
      elu: gauges(M.elu),
      delayP99: gauges(M.p99),
      delayMax: gauges(M.max),
      gcSeconds: mergeSum([...(metrics.get(M.gc)?.values() ?? [])].map((ps) => histogramSumSamples(ps))),
      heapUsed: gauges(M.heap),
    });
  }
  processes.sort((a, b) => (a.key < b.key ? -1 : 1));
  return {
    processes,
    memory: [...memory.values()]
      .map((m) => ({ server: m.server, type: m.type, samples: gaugeSamples(m.points) }))
      .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : a.type < b.type ? -1 : 1)),
    hostMemory: gaugeSamples(host),
    recorded: points.length > 0,
  };
}

function pidOf(p: MetricPoint): string | null {
  const v = p.resource.attributes['process.pid'];
  return v === undefined || v === null ? null : String(v);
}

// Gauges: each point covers the time since the previous export of the same series.
function gaugeSamples(points: MetricPoint[]): Sample[] {
  const sorted = [...points].sort(byEnd);
  const out: Sample[] = [];
  let prevEnd: bigint | null = null;
  for (const p of sorted) {
    if (p.value === null) continue;
    out.push({ startNs: intervalStart(p, prevEnd), endNs: p.endNs, value: p.value });
    prevEnd = p.endNs;
  }
  return out;
}

// Histograms: the sum recorded within each interval (cumulative sums are differenced; a drop
// means the process restarted its counting).
function histogramSumSamples(points: MetricPoint[]): Sample[] {
  const sorted = [...points].sort(byEnd);
  const out: Sample[] = [];
  let prevEnd: bigint | null = null;
  let prevSum = 0;
  for (const p of sorted) {
    if (p.sum === null) continue;
    const delta = p.temporality === 'DELTA' ? p.sum : p.sum >= prevSum ? p.sum - prevSum : p.sum;
    out.push({ startNs: intervalStart(p, prevEnd), endNs: p.endNs, value: delta });
    prevEnd = p.endNs;
    prevSum = p.sum;
  }
  return out;
}

function intervalStart(p: MetricPoint, prevEnd: bigint | null): bigint {
  const s = prevEnd !== null && prevEnd > p.startNs ? prevEnd : p.startNs;
  return s < p.endNs ? s : p.endNs;
}

// Several attribute sets of one metric (heap spaces, GC types) sum into one series; the first
// set's intervals are kept (the sets of one process are exported together).
function mergeSum(series: Sample[][]): Sample[] {
  if (series.length <= 1) return series[0] ?? [];
  const byEnd = new Map<bigint, Sample>();
  for (const s of series) {
    for (const x of s) {
      const prev = byEnd.get(x.endNs);
      if (prev === undefined) byEnd.set(x.endNs, { ...x });
      else prev.value += x.value;
    }
  }
  return [...byEnd.values()].sort((a, b) => (a.endNs < b.endNs ? -1 : a.endNs > b.endNs ? 1 : 0));
}

function byEnd(a: MetricPoint, b: MetricPoint): number {
  return a.endNs < b.endNs ? -1 : a.endNs > b.endNs ? 1 : 0;
}
