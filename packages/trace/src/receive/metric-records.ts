/**
 * OTLP metrics → our console metric records (`{"type":"metric",…}`, one per metric), in the shape
 * the lens console exporter writes (`packages/lens/src/setup/exporters/metric-record.ts`).
 * `Summary` metrics, which the JS SDK never produces, are written with kind `SUMMARY` and their
 * quantiles.
 * @module
 */
import { decodeKeyValues } from '../otlp-values.js';
import { asObjects, scopeItems, unixTimeOf } from './otlp-shape.js';
import type { Obj, ServiceRecord } from './otlp-shape.js';

const TEMPORALITY: Record<number, string> = { 1: 'DELTA', 2: 'CUMULATIVE' };

/** Converts every metric of a decoded `ExportMetricsServiceRequest`. Never throws. */
export function metricRecordsOf(request: Obj): ServiceRecord[] {
  const out: ServiceRecord[] = [];
  for (const group of scopeItems(request, 'resourceMetrics', 'scopeMetrics', 'instrumentationLibraryMetrics', 'metrics')) {
    for (const m of group.items) {
      const [kind, data] = dataOf(m);
      const record: Obj = {
        type: 'metric',
        name: str(m['name']),
        description: str(m['description']),
        unit: str(m['unit']),
        kind,
        temporality: TEMPORALITY[Number(data['aggregationTemporality'])] ?? 'CUMULATIVE',
        ...(kind === 'SUM' ? { is_monotonic: data['isMonotonic'] === true } : {}),
        data_points: asObjects(data['dataPoints']).map((p) => point(kind, p)),
        resource: group.resource,
        scope: group.scope,
      };
      out.push({ service: group.service, line: JSON.stringify(record) });
    }
  }
  return out;
}

function dataOf(m: Obj): [string, Obj] {
  for (const [key, kind] of [
    ['sum', 'SUM'],
    ['gauge', 'GAUGE'],
    ['histogram', 'HISTOGRAM'],
    ['exponentialHistogram', 'EXPONENTIAL_HISTOGRAM'],
    ['summary', 'SUMMARY'],
  ] as const) {
    const d = m[key];
    if (d !== null && typeof d === 'object') return [kind, d as Obj];
  }
  return ['GAUGE', {}];
}

function point(kind: string, p: Obj): Obj {
  const start = unixTimeOf(p['startTimeUnixNano']);
  const end = unixTimeOf(p['timeUnixNano']);
  const base: Obj = { attributes: decodeKeyValues(p['attributes']), start_time: start.iso, end_time: end.iso, start_time_unix_nano: start.nanos, end_time_unix_nano: end.nanos };
  switch (kind) {
    case 'SUM':
    case 'GAUGE':
      return { ...base, value: num(p['asDouble'] ?? p['asInt']) ?? 0 };
    case 'HISTOGRAM':
      return { ...base, count: num(p['count']) ?? 0, sum: num(p['sum']), min: num(p['min']), max: num(p['max']), bucket_bounds: nums(p['explicitBounds']), bucket_counts: nums(p['bucketCounts']) };
    case 'EXPONENTIAL_HISTOGRAM':
      return {
        ...base,
        count: num(p['count']) ?? 0,
        sum: num(p['sum']),
        min: num(p['min']),
        max: num(p['max']),
        scale: num(p['scale']) ?? 0,
        zero_count: num(p['zeroCount']) ?? 0,
        positive: buckets(p['positive']),
        negative: buckets(p['negative']),
      };
    default:
      return {
        ...base,
        count: num(p['count']) ?? 0,
        sum: num(p['sum']),
        quantile_values: asObjects(p['quantileValues']).map((q) => ({ quantile: num(q['quantile']) ?? 0, value: num(q['value']) ?? 0 })),
      };
  }
}

function buckets(v: unknown): { offset: number; bucket_counts: number[] } {
  const b = (v ?? {}) as Obj;
  return { offset: num(b['offset']) ?? 0, bucket_counts: nums(b['bucketCounts']) };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

// 64-bit counts arrive as decimal strings; as numbers they are exact up to 2^53, which counts never reach.
function num(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

function nums(v: unknown): number[] {
  return Array.isArray(v) ? v.map((x) => num(x) ?? 0) : [];
}
