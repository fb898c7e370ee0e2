import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, DataPointType, InMemoryMetricExporter, InstrumentType, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { DataPoint, Histogram, MetricData, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { getLeanCounter, getLeanHistogram } from '@gym/lens';
import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';
import { LeanMetricsProducer, SERIES_LIMIT } from '../../src/setup/lean-metrics-producer.js';
import { textSink } from '../support/sinks.js';

const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
// on, between and beyond the bounds; 0; the SDK refuses negatives and ignores NaN
const VALUES = [0, 0.005, 0.0051, 0.01, 0.3, 0.5, 1, 1.0001, 7, -1, Number.NaN, 0.02, 0.02];

/** One reader collecting SDK instruments (scope `sdk`) and the producer's (scope `lean`) side by side. */
function sideBySide(temporality: AggregationTemporality) {
  const resource = resourceFromAttributes({ 'service.name': 'test' });
  const producer = new LeanMetricsProducer(resource);
  const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(temporality), exportIntervalMillis: 3_600_000, metricProducers: [producer] });
  producer.useTemporality((kind) => reader.selectAggregationTemporality(kind === 'histogram' ? InstrumentType.HISTOGRAM : InstrumentType.COUNTER));
  const provider = new MeterProvider({ resource, readers: [reader] });
  const sdk = provider.getMeter('sdk').createHistogram('h', { unit: 's', description: 'd', advice: { explicitBucketBoundaries: BOUNDS } });
  const lean = producer.histogram({ name: 'lean' }, 'h', { unit: 's', description: 'd', boundaries: BOUNDS });
  const sdkCounter = provider.getMeter('sdk').createCounter('c', { unit: '1', description: 'd' });
  const leanCounter = producer.counter({ name: 'lean' }, 'c', { unit: '1', description: 'd' });
  const collect = async () => {
    const { resourceMetrics } = await reader.collect();
    return {
      sdk: pointsOf(resourceMetrics, 'sdk'),
      lean: pointsOf(resourceMetrics, 'lean'),
      sdkSums: pointsOf<number>(resourceMetrics, 'sdk', 'c'),
      leanSums: pointsOf<number>(resourceMetrics, 'lean', 'c'),
    };
  };
  return { provider, sdk, lean, sdkCounter, leanCounter, collect };
}

function pointsOf<T = Histogram>(batch: ResourceMetrics, scope: string, name = 'h'): { metric: MetricData | undefined; points: DataPoint<T>[] } {
  const metric = batch.scopeMetrics.find((s) => s.scope.name === scope)?.metrics.find((m) => m.descriptor.name === name);
  if (metric === undefined) return { metric, points: [] };
  assert.equal(metric.dataPointType, name === 'h' ? DataPointType.HISTOGRAM : DataPointType.SUM);
  return { metric, points: [...(metric.dataPoints as DataPoint<T>[])].sort((a, b) => JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes))) };
}

/** What must agree between an SDK point and a lean one (times differ by when each first recorded). */
const valueOf = (p: DataPoint<Histogram>) => ({ attributes: p.attributes, ...p.value, buckets: { boundaries: [...p.value.buckets.boundaries], counts: [...p.value.buckets.counts] } });

describe('lean instruments', () => {
  afterEach(() => metrics.disable());

  it('give the points an SDK histogram with the same bounds gives (cumulative)', async () => {
    const { provider, sdk, lean, collect } = sideBySide(AggregationTemporality.CUMULATIVE);
    const sets = [{ 'http.route': '/verify', 'http.response.status_code': 200 }, { 'http.response.status_code': 500, 'http.route': '/verify' }, {}];
    for (const [i, attributes] of sets.entries()) {
      const bound = lean.bind(attributes);
      for (const v of VALUES.slice(i)) {
        sdk.record(v, attributes);
        bound.record(v);
      }
    }
    const first = await collect();
    assert.equal(first.lean.points.length, 3);
    assert.deepEqual(first.lean.points.map(valueOf), first.sdk.points.map(valueOf));
    const described = (m: MetricData | undefined) => m && { name: m.descriptor.name, description: m.descriptor.description, unit: m.descriptor.unit, valueType: m.descriptor.valueType };
    assert.deepEqual(described(first.lean.metric), described(first.sdk.metric));
    assert.equal(first.lean.metric?.aggregationTemporality, AggregationTemporality.CUMULATIVE);
    // the same attributes in another key order are the same series
    lean.bind({ 'http.response.status_code': 200, 'http.route': '/verify' }).record(2);
    sdk.record(2, { 'http.route': '/verify', 'http.response.status_code': 200 });
    const second = await collect();
    assert.deepEqual(second.lean.points.map(valueOf), second.sdk.points.map(valueOf));
    // cumulative: a series keeps its first start
    assert.deepEqual(
      second.lean.points.map((p) => p.startTime),
      first.lean.points.map((p) => p.startTime),
    );
    await provider.shutdown();
  });

  it('start each delta period at the previous collection and leave out series that recorded nothing', async () => {
    const { provider, sdk, lean, collect } = sideBySide(AggregationTemporality.DELTA);
    const a = lean.bind({ k: 'a' });
    const b = lean.bind({ k: 'b' });
    for (const v of [0.001, 0.2, 3]) {
      a.record(v);
      sdk.record(v, { k: 'a' });
    }
    b.record(0.01);
    sdk.record(0.01, { k: 'b' });
    const first = await collect();
    assert.deepEqual(first.lean.points.map(valueOf), first.sdk.points.map(valueOf));
    a.record(0.7);
    sdk.record(0.7, { k: 'a' });
    const second = await collect();
    assert.deepEqual(second.lean.points.map(valueOf), second.sdk.points.map(valueOf));
    assert.equal(second.lean.points.length, 1, 'b recorded nothing in the second period');
    assert.deepEqual(second.lean.points[0]!.startTime, first.lean.points[0]!.endTime, 'the period starts where the last one ended');
    const third = await collect();
    assert.equal(third.lean.metric, undefined, 'nothing recorded: no metric at all');
    assert.equal(third.sdk.metric, undefined);
    await provider.shutdown();
  });

  it('put series beyond the cardinality limit into one overflow series, as the SDK does', async () => {
    const { provider, sdk, lean, collect } = sideBySide(AggregationTemporality.CUMULATIVE);
    for (let i = 0; i < SERIES_LIMIT + 50; i++) {
      lean.bind({ i }).record(0.01);
      sdk.record(0.01, { i });
    }
    const { lean: l, sdk: s } = await collect();
    assert.equal(l.points.length, SERIES_LIMIT);
    const overflow = (points: DataPoint<Histogram>[]) => points.find((p) => p.attributes['otel.metric.overflow'] === true)?.value.count;
    assert.equal(overflow(l.points), 51);
    assert.equal(overflow(l.points), overflow(s.points));
    await provider.shutdown();
  });

  it('give the sums an SDK counter gives, cumulative and delta', async () => {
    for (const temporality of [AggregationTemporality.CUMULATIVE, AggregationTemporality.DELTA]) {
      const { provider, sdkCounter, leanCounter, collect } = sideBySide(temporality);
      const success = leanCounter.bind({ outcome: 'success' });
      const failure = leanCounter.bind({ outcome: 'failure' });
      for (const [bound, attributes, value] of [
        [success, { outcome: 'success' }, 1],
        [success, { outcome: 'success' }, 2],
        [failure, { outcome: 'failure' }, 1],
        [failure, { outcome: 'failure' }, -5],
      ] as const) {
        bound.add(value);
        sdkCounter.add(value, attributes);
      }
      const sums = (points: DataPoint<number>[]) => points.map((p) => [p.attributes, p.value]);
      const first = await collect();
      assert.deepEqual(sums(first.leanSums.points), sums(first.sdkSums.points));
      assert.deepEqual(sums(first.leanSums.points), [
        [{ outcome: 'failure' }, 1],
        [{ outcome: 'success' }, 3],
      ]);
      assert.equal((first.leanSums.metric as { isMonotonic?: boolean }).isMonotonic, true);
      assert.equal(first.leanSums.metric?.aggregationTemporality, temporality);
      success.add(4);
      sdkCounter.add(4, { outcome: 'success' });
      const second = await collect();
      assert.deepEqual(sums(second.leanSums.points), sums(second.sdkSums.points), `temporality ${temporality}`);
      await provider.shutdown();
    }
  });

  it('reach the console exporter through lens setup, and fall back to the global meter without it', async () => {
    const sink = textSink();
    const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'console', tracesEnabled: false, logsEnabled: false }), { output: sink.stream, allowReinit: true });
    const bound = getLeanHistogram('gym', '1.0', 'http.server.request.duration', { unit: 's', description: 'Duration of HTTP server requests', boundaries: BOUNDS });
    bound.bind({ 'http.route': '/run' }).record(0.02);
    bound.bind({ 'http.route': '/run' }).record(3);
    getLeanCounter('gym', '1.0', 'gym.rollout.completed_total', { unit: '1', description: 'd' }).bind({ outcome: 'success' }).add(1);
    await handle.shutdown();
    const records = sink
      .text()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = records.find((r) => r['name'] === 'http.server.request.duration');
    assert.ok(line, sink.text());
    assert.equal(line['kind'], 'HISTOGRAM');
    assert.equal(line['unit'], 's');
    assert.deepEqual(line['scope'], { name: 'gym', version: '1.0' });
    const [point] = line['data_points'] as Array<Record<string, unknown>>;
    assert.deepEqual(point!['attributes'], { 'http.route': '/run' });
    assert.equal(point!['count'], 2);
    assert.deepEqual(point!['bucket_bounds'], BOUNDS);
    assert.deepEqual(point!['bucket_counts'], [0, 0, 1, 0, 0, 0, 0, 0, 1]);
    const counter = records.find((r) => r['name'] === 'gym.rollout.completed_total');
    assert.equal(counter?.['kind'], 'SUM');
    assert.equal(counter?.['is_monotonic'], true);
    assert.deepEqual(
      (counter?.['data_points'] as Array<Record<string, unknown>>).map((p) => [p['attributes'], p['value']]),
      [[{ outcome: 'success' }, 1]],
    );

    // no lens pipeline: the same call records on the global meter provider's histogram
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ readers: [reader] });
    metrics.disable(); // lens's shut-down provider stays registered
    assert.ok(metrics.setGlobalMeterProvider(provider));
    getLeanHistogram('gym', undefined, 'h', { unit: 's', description: 'd', boundaries: BOUNDS }).bind({ k: 1 }).record(0.3);
    const { resourceMetrics } = await reader.collect();
    const { points } = pointsOf(resourceMetrics, 'gym');
    assert.deepEqual(
      points.map((p) => [p.attributes, p.value.count, p.value.sum]),
      [[{ k: 1 }, 1, 0.3]],
    );
    await provider.shutdown();
  });
});
