// Metric lines exactly as the lens console exporter writes them (metric-record.ts): one record per
// metric per export, the process's resource on each, cumulative temporality as the SDK's default.
import { msToNs } from './fixtures.js';

function iso(ns: bigint): string {
  const d = new Date(Number(ns / 1_000_000n)).toISOString();
  return `${d.slice(0, 19)}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}

export interface ProcessResource {
  service: string;
  pid: number;
}

function resource(p: ProcessResource) {
  return { attributes: { 'service.name': p.service, 'nemo.run.id': 'run1', 'process.pid': p.pid, 'host.name': 'node-1' } };
}

type Point = { attributes?: Record<string, unknown>; value?: number; count?: number; sum?: number; min?: number; max?: number };

/** One metric record; every point spans [startMs, endMs] (ms after the fixtures' base instant). */
export function metricLine(p: ProcessResource, name: string, unit: string, kind: 'GAUGE' | 'HISTOGRAM' | 'SUM', startMs: number, endMs: number, points: Point[]): string {
  const s = msToNs(startMs);
  const e = msToNs(endMs);
  const times = { start_time: iso(s), end_time: iso(e), start_time_unix_nano: s.toString(), end_time_unix_nano: e.toString() };
  return JSON.stringify({
    type: 'metric',
    name,
    description: '',
    unit,
    kind,
    temporality: 'CUMULATIVE',
    data_points: points.map((pt) =>
      kind === 'HISTOGRAM'
        ? { attributes: pt.attributes ?? {}, ...times, count: pt.count, sum: pt.sum, min: pt.min ?? null, max: pt.max ?? null, bucket_bounds: [0.01, 0.1, 1], bucket_counts: [pt.count, 0, 0, 0] }
        : { attributes: pt.attributes ?? {}, ...times, value: pt.value },
    ),
    resource: resource(p),
    scope: { name: '@gym/lens', version: null },
  });
}

/** A process's load over a run, exported every `everyMs` from `fromMs` to `toMs`. */
export interface LoadShape {
  /** Event-loop utilization 0..1. */
  elu: number;
  /** Utilization over time instead (ms after the base instant → 0..1). */
  eluAt?: (ms: number) => number;
  /** Event-loop delay p99, ms. */
  delayP99Ms: number;
  /** Delay p99 over time instead (ms after the base instant → ms). */
  delayP99At?: (ms: number) => number;
  /** Share of the time in GC, 0..1. */
  gcShare?: number;
}

/** The saturation metric lines one process writes over [fromMs, toMs]. */
export function saturationLines(p: ProcessResource, load: LoadShape, fromMs: number, toMs: number, everyMs = 1000): string[] {
  const lines: string[] = [];
  let gcSum = 0;
  let gcCount = 0;
  for (let t = fromMs + everyMs; t <= toMs + everyMs - 1; t += everyMs) {
    const end = Math.min(t, toMs);
    // gauges of the interval; cumulative points all start at the process start
    const p99 = load.delayP99At === undefined ? load.delayP99Ms : load.delayP99At(end);
    lines.push(metricLine(p, 'nodejs.eventloop.utilization', '1', 'GAUGE', fromMs, end, [{ value: load.eluAt === undefined ? load.elu : load.eluAt(end) }]));
    lines.push(metricLine(p, 'nodejs.eventloop.delay.p50', 's', 'GAUGE', fromMs, end, [{ value: p99 / 4000 }]));
    lines.push(metricLine(p, 'nodejs.eventloop.delay.p99', 's', 'GAUGE', fromMs, end, [{ value: p99 / 1000 }]));
    lines.push(metricLine(p, 'nodejs.eventloop.delay.max', 's', 'GAUGE', fromMs, end, [{ value: (p99 * 1.5) / 1000 }]));
    gcSum += ((load.gcShare ?? 0.01) * (end - (t - everyMs))) / 1000;
    gcCount += 10;
    lines.push(metricLine(p, 'v8js.gc.duration', 's', 'HISTOGRAM', fromMs, end, [{ attributes: { 'v8js.gc.type': 'minor' }, count: gcCount, sum: gcSum }]));
    lines.push(
      metricLine(p, 'v8js.memory.heap.used', 'By', 'GAUGE', fromMs, end, [
        { attributes: { 'v8js.heap.space.name': 'new_space' }, value: 4e6 },
        { attributes: { 'v8js.heap.space.name': 'old_space' }, value: 3e7 + t * 1000 },
      ]),
    );
    if (end === toMs) break;
  }
  return lines;
}

/** The orchestrator's memory samples of one server's process tree. */
export function serverMemoryLines(orchestrator: ProcessResource, server: string, fromMs: number, toMs: number, bytesAt: (ms: number) => number, everyMs = 1000): string[] {
  const lines: string[] = [];
  for (let t = fromMs; t <= toMs; t += everyMs) {
    lines.push(
      metricLine(orchestrator, 'gym.server.memory.usage', 'By', 'GAUGE', fromMs, t, [
        { attributes: { 'nemo.gym.server.name': server, 'nemo.gym.server.type': 'resources_servers', 'process.pid': 4000, 'memory.type': 'rss' }, value: bytesAt(t) },
      ]),
    );
  }
  return lines;
}
