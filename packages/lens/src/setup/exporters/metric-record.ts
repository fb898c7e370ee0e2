/**
 * The console record of one metric (one line per metric per export). Times are exact unix nanos;
 * the resource is stated by the stream's resource record, and the line ends with the process's
 * identity (appended by the exporter, see process-identity.ts).
 * @module
 */
import type { Attributes } from '@opentelemetry/api';
import { AggregationTemporality, DataPointType } from '@opentelemetry/sdk-metrics';
import type { DataPoint, MetricData, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { hrTimeToNanosString } from './time.js';

/** One data point of a metric record; `value` for sums and gauges, the histogram fields otherwise. */
export interface MetricPointRecord {
  attributes: Attributes;
  start_time_unix_nano: string;
  end_time_unix_nano: string;
  value?: number;
  count?: number;
  sum?: number | null;
  min?: number | null;
  max?: number | null;
  bucket_bounds?: number[];
  bucket_counts?: number[];
  scale?: number;
  zero_count?: number;
  positive?: { offset: number; bucket_counts: number[] };
  negative?: { offset: number; bucket_counts: number[] };
}

/** The JSON object written for one metric. */
export interface MetricRecord {
  type: 'metric';
  name: string;
  description: string;
  unit: string;
  kind: 'SUM' | 'GAUGE' | 'HISTOGRAM' | 'EXPONENTIAL_HISTOGRAM';
  temporality: 'CUMULATIVE' | 'DELTA';
  is_monotonic?: boolean | undefined;
  data_points: MetricPointRecord[];
  scope: { name: string; version: string | null };
}

/** Builds one record per metric in `batch`. */
export function toMetricRecords(batch: ResourceMetrics): MetricRecord[] {
  const out: MetricRecord[] = [];
  for (const scopeMetrics of batch.scopeMetrics) {
    const scope = { name: scopeMetrics.scope.name, version: scopeMetrics.scope.version ?? null };
    for (const metric of scopeMetrics.metrics) out.push(toMetricRecord(metric, scope));
  }
  return out;
}

function toMetricRecord(metric: MetricData, scope: MetricRecord['scope']): MetricRecord {
  const record: MetricRecord = {
    type: 'metric',
    name: metric.descriptor.name,
    description: metric.descriptor.description,
    unit: metric.descriptor.unit,
    kind: 'GAUGE',
    temporality: metric.aggregationTemporality === AggregationTemporality.DELTA ? 'DELTA' : 'CUMULATIVE',
    // placeholder keeps the key order stable; JSON.stringify leaves it out unless it is set below
    is_monotonic: undefined,
    data_points: [],
    scope,
  };
  switch (metric.dataPointType) {
    case DataPointType.SUM:
      record.kind = 'SUM';
      record.is_monotonic = metric.isMonotonic;
      record.data_points = metric.dataPoints.map((p) => ({ ...times(p), value: p.value }));
      break;
    case DataPointType.GAUGE:
      record.data_points = metric.dataPoints.map((p) => ({ ...times(p), value: p.value }));
      break;
    case DataPointType.HISTOGRAM:
      record.kind = 'HISTOGRAM';
      record.data_points = metric.dataPoints.map((p) => ({
        ...times(p),
        ...summary(p.value),
        bucket_bounds: p.value.buckets.boundaries,
        bucket_counts: p.value.buckets.counts,
      }));
      break;
    case DataPointType.EXPONENTIAL_HISTOGRAM:
      record.kind = 'EXPONENTIAL_HISTOGRAM';
      record.data_points = metric.dataPoints.map((p) => ({
        ...times(p),
        ...summary(p.value),
        scale: p.value.scale,
        zero_count: p.value.zeroCount,
        positive: { offset: p.value.positive.offset, bucket_counts: p.value.positive.bucketCounts },
        negative: { offset: p.value.negative.offset, bucket_counts: p.value.negative.bucketCounts },
      }));
      break;
  }
  return record;
}

function times(p: DataPoint<unknown>): Omit<MetricPointRecord, 'value'> {
  return {
    attributes: p.attributes,
    start_time_unix_nano: hrTimeToNanosString(p.startTime),
    end_time_unix_nano: hrTimeToNanosString(p.endTime),
  };
}

/** Count, sum, min and max shared by both histogram kinds (`null` where the SDK recorded none). */
function summary(value: { count: number; sum?: number; min?: number; max?: number }): { count: number; sum: number | null; min: number | null; max: number | null } {
  return { count: value.count, sum: value.sum ?? null, min: value.min ?? null, max: value.max ?? null };
}
