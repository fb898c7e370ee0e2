/**
 * Reads the metric records of our console output (`{"type":"metric",…}`, one per metric per
 * export; shape of the lens console exporter) into points. Only the saturation metrics the
 * analyses use are kept: the rest of a run's metrics would only cost memory.
 * @module
 */
import type { Attributes, SpanResource } from '../span-record.js';
import { asAttributes, serviceOf } from './normalize.js';
import { resourceOfRecord } from './resource-cache.js';
import type { ResourceCache } from './resource-cache.js';
import { anyTimeToNs } from './time.js';

/** One data point of a kept metric. Values in the metric's unit (seconds, bytes, 0..1). */
export interface MetricPoint {
  name: string;
  kind: string;
  temporality: 'CUMULATIVE' | 'DELTA';
  service: string;
  resource: SpanResource;
  attributes: Attributes;
  startNs: bigint;
  endNs: bigint;
  /** Gauges and sums. */
  value: number | null;
  /** Histograms: count and sum of the recorded values. */
  count: number | null;
  sum: number | null;
}

/** Metric names (or prefixes ending in `.`) kept by the reader. */
export const SATURATION_METRICS = ['nodejs.eventloop.', 'v8js.gc.duration', 'v8js.memory.heap.used', 'gym.server.memory.', 'gym.server.processes', 'gym.host.memory.'] as const;

/** True when `obj` is one of our console metric records. */
export function isConsoleMetric(obj: Record<string, unknown>): boolean {
  return obj['type'] === 'metric' && typeof obj['name'] === 'string';
}

/** True when the metric `name` is one the analyses read. */
export function isSaturationMetric(name: string): boolean {
  return SATURATION_METRICS.some((m) => (m.endsWith('.') ? name.startsWith(m) : name === m));
}

/** The points of a console metric record (none when the metric is not kept or has no usable time). */
export function fromConsoleMetric(obj: Record<string, unknown>, resources: ResourceCache, file = ''): MetricPoint[] {
  const name = obj['name'] as string;
  if (!isSaturationMetric(name)) return [];
  const raw = obj['data_points'];
  if (!Array.isArray(raw)) return [];
  const resource = resourceOfRecord(obj, file, resources);
  const service = serviceOf(resource.attributes);
  const kind = typeof obj['kind'] === 'string' ? obj['kind'] : 'GAUGE';
  const temporality = obj['temporality'] === 'DELTA' ? 'DELTA' : 'CUMULATIVE';
  const out: MetricPoint[] = [];
  for (const p of raw as Array<Record<string, unknown>>) {
    if (p === null || typeof p !== 'object') continue;
    const endNs = anyTimeToNs(p['end_time_unix_nano'], p['end_time']);
    if (endNs === null) continue;
    const startNs = anyTimeToNs(p['start_time_unix_nano'], p['start_time']) ?? endNs;
    out.push({ name, kind, temporality, service, resource, attributes: asAttributes(p['attributes']), startNs, endNs, value: num(p['value']), count: num(p['count']), sum: num(p['sum']) });
  }
  return out;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
