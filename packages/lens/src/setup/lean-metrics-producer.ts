/**
 * lens's own histograms and counters (`lean-metrics.ts`): each attribute set is a series bound
 * once, and the metric reader collects them as a `MetricProducer`, beside the SDK's instruments.
 * The points are those an SDK instrument would give — histogram buckets (upper bound inclusive),
 * count, sum, min, max; monotonic sums; start time at the first record, or at the previous
 * collection for a series reported in the previous delta period; at most 2000 series per
 * instrument, the rest in one `otel.metric.overflow` series — so exporters and readers of the
 * output see no difference.
 * @module
 */
import { ValueType } from '@opentelemetry/api';
import type { Attributes, HrTime } from '@opentelemetry/api';
import { hrTime, millisToHrTime } from '@opentelemetry/core';
import { AggregationTemporality, DataPointType } from '@opentelemetry/sdk-metrics';
import type { CollectionResult, DataPoint, Histogram, MetricData, MetricProducer, ScopeMetrics } from '@opentelemetry/sdk-metrics';
import type { Resource } from '@opentelemetry/resources';
import type { BoundCounter, BoundHistogram, LeanCounter, LeanHistogram, LeanHistogramOptions, LeanInstrumentOptions, LeanMetricsSink, LeanScope } from '../fast-tracer/lean-metrics.js';

/** The SDK's boundaries for a histogram that advises none. */
export const SDK_DEFAULT_BOUNDARIES: readonly number[] = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];
/** Series per instrument, the overflow series included (the SDK's default cardinality limit). */
export const SERIES_LIMIT = 2000;
const OVERFLOW_ATTRIBUTES: Attributes = Object.freeze({ 'otel.metric.overflow': true });

/** What every series keeps: its attributes, how many records, and since when. */
abstract class Series {
  readonly attributes: Attributes;
  count = 0;
  /** Set by the first record; for a series reported in the previous delta period, by that collection. */
  startTime: HrTime | undefined;

  constructor(attributes: Attributes) {
    this.attributes = attributes;
  }

  protected started(): void {
    if (this.startTime === undefined) this.startTime = millisToHrTime(Date.now());
    this.count++;
  }

  /** Starts a new delta period at `time`. */
  abstract reset(time: HrTime): void;
}

class HistogramSeries extends Series implements BoundHistogram {
  readonly #boundaries: readonly number[];
  counts: number[];
  sum = 0;
  min = Infinity;
  max = -Infinity;

  constructor(attributes: Attributes, boundaries: readonly number[]) {
    super(attributes);
    this.#boundaries = boundaries;
    this.counts = new Array<number>(boundaries.length + 1).fill(0);
  }

  record(value: number): void {
    // as the SDK's histogram: a negative value is refused, NaN falls in no bucket
    if (value < 0 || Number.isNaN(value)) return;
    this.started();
    this.sum += value;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    // the first boundary >= value (buckets include their upper bound)
    const bounds = this.#boundaries;
    let lo = 0;
    let hi = bounds.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (bounds[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    this.counts[lo]!++;
  }

  reset(time: HrTime): void {
    this.counts = new Array<number>(this.counts.length).fill(0);
    this.count = 0;
    this.sum = 0;
    this.min = Infinity;
    this.max = -Infinity;
    this.startTime = time;
  }

  point(): Histogram {
    return { buckets: { boundaries: [...this.#boundaries], counts: [...this.counts] }, count: this.count, sum: this.sum, min: this.min, max: this.max };
  }
}

class CounterSeries extends Series implements BoundCounter {
  sum = 0;

  add(value: number): void {
    // as the SDK's counter: a negative value is refused (and NaN would poison the sum)
    if (value < 0 || Number.isNaN(value)) return;
    this.started();
    this.sum += value;
  }

  reset(time: HrTime): void {
    this.count = 0;
    this.sum = 0;
    this.startTime = time;
  }
}

/** The kinds of lean instrument. */
export type LeanInstrumentKind = 'histogram' | 'counter';

/** One instrument: its series by attribute set, and how to turn them into a metric. */
abstract class Instrument<S extends Series> {
  abstract readonly kind: LeanInstrumentKind;
  readonly scope: LeanScope;
  readonly name: string;
  readonly options: LeanInstrumentOptions;
  readonly #series = new Map<string, S>();

  constructor(scope: LeanScope, name: string, options: LeanInstrumentOptions) {
    this.scope = scope;
    this.name = name;
    this.options = options;
  }

  protected abstract newSeries(attributes: Attributes): S;
  protected abstract toMetric(series: readonly S[], temporality: AggregationTemporality, now: HrTime): MetricData;

  bind(attributes: Attributes): S {
    const key = keyOf(attributes);
    let series = this.#series.get(key);
    if (series === undefined) {
      if (this.#series.size >= SERIES_LIMIT - 1) return this.#overflow();
      series = this.newSeries({ ...attributes });
      this.#series.set(key, series);
    }
    return series;
  }

  #overflow(): S {
    const key = keyOf(OVERFLOW_ATTRIBUTES);
    let series = this.#series.get(key);
    if (series === undefined) this.#series.set(key, (series = this.newSeries(OVERFLOW_ATTRIBUTES)));
    return series;
  }

  /** The metric of the series recorded in the period (delta) or ever (cumulative); undefined when none. */
  collect(temporality: AggregationTemporality, now: HrTime): MetricData | undefined {
    const recorded: S[] = [];
    for (const s of this.#series.values()) {
      if (s.count > 0) recorded.push(s);
      // silent for a whole delta period: a later record starts a new stream, as in the SDK
      else if (temporality === AggregationTemporality.DELTA) s.startTime = undefined;
    }
    if (recorded.length === 0) return undefined;
    const metric = this.toMetric(recorded, temporality, now);
    if (temporality === AggregationTemporality.DELTA) for (const s of recorded) s.reset(now);
    return metric;
  }

  protected descriptor(): MetricData['descriptor'] {
    return { name: this.name, description: this.options.description, unit: this.options.unit, valueType: ValueType.DOUBLE };
  }
}

class HistogramInstrument extends Instrument<HistogramSeries> implements LeanHistogram {
  readonly kind = 'histogram';
  readonly #boundaries: readonly number[];

  constructor(scope: LeanScope, name: string, options: LeanHistogramOptions) {
    super(scope, name, options);
    // sorted, without infinities, as the SDK's explicit-bucket aggregation keeps them
    this.#boundaries = Object.freeze([...(options.boundaries ?? SDK_DEFAULT_BOUNDARIES)].filter((b) => Number.isFinite(b)).sort((a, b) => a - b));
  }

  protected newSeries(attributes: Attributes): HistogramSeries {
    return new HistogramSeries(attributes, this.#boundaries);
  }

  protected toMetric(series: readonly HistogramSeries[], temporality: AggregationTemporality, now: HrTime): MetricData {
    const dataPoints: DataPoint<Histogram>[] = series.map((s) => ({ attributes: s.attributes, startTime: s.startTime!, endTime: now, value: s.point() }));
    return { descriptor: this.descriptor(), aggregationTemporality: temporality, dataPointType: DataPointType.HISTOGRAM, dataPoints };
  }
}

class CounterInstrument extends Instrument<CounterSeries> implements LeanCounter {
  readonly kind = 'counter';
  protected newSeries(attributes: Attributes): CounterSeries {
    return new CounterSeries(attributes);
  }

  protected toMetric(series: readonly CounterSeries[], temporality: AggregationTemporality, now: HrTime): MetricData {
    const dataPoints: DataPoint<number>[] = series.map((s) => ({ attributes: s.attributes, startTime: s.startTime!, endTime: now, value: s.sum }));
    return { descriptor: this.descriptor(), aggregationTemporality: temporality, dataPointType: DataPointType.SUM, isMonotonic: true, dataPoints };
  }
}

/** The same key for the same attribute set, whatever the order of its keys. */
function keyOf(attributes: Attributes): string {
  return JSON.stringify(
    Object.keys(attributes)
      .sort()
      .map((k) => [k, attributes[k]]),
  );
}

/** lens's instruments, collected by the metric reader they are given to (`metricProducers`). */
export class LeanMetricsProducer implements MetricProducer, LeanMetricsSink {
  readonly #resource: Resource;
  readonly #instruments = new Map<string, HistogramInstrument | CounterInstrument>();
  #temporality: (kind: LeanInstrumentKind) => AggregationTemporality = () => AggregationTemporality.CUMULATIVE;

  constructor(resource: Resource) {
    this.#resource = resource;
  }

  /** Where the temporality of each kind comes from: the reader's choice. */
  useTemporality(select: (kind: LeanInstrumentKind) => AggregationTemporality): void {
    this.#temporality = select;
  }

  histogram(scope: LeanScope, name: string, options: LeanHistogramOptions): LeanHistogram {
    return this.#instrument('histogram', scope, name, () => new HistogramInstrument(scope, name, options));
  }

  counter(scope: LeanScope, name: string, options: LeanInstrumentOptions): LeanCounter {
    return this.#instrument('counter', scope, name, () => new CounterInstrument(scope, name, options));
  }

  #instrument<I extends HistogramInstrument | CounterInstrument>(kind: LeanInstrumentKind, scope: LeanScope, name: string, make: () => I): I {
    const key = `${kind} ${scope.name}@${scope.version ?? ''}/${name}`;
    let instrument = this.#instruments.get(key);
    if (instrument === undefined) this.#instruments.set(key, (instrument = make()));
    return instrument as I;
  }

  collect(): Promise<CollectionResult> {
    const now = hrTime();
    const temporality = { histogram: this.#temporality('histogram'), counter: this.#temporality('counter') };
    const byScope = new Map<string, ScopeMetrics>();
    for (const instrument of this.#instruments.values()) {
      const metric = instrument.collect(temporality[instrument.kind], now);
      if (metric === undefined) continue;
      const scopeKey = `${instrument.scope.name}@${instrument.scope.version ?? ''}`;
      let scope = byScope.get(scopeKey);
      if (scope === undefined) byScope.set(scopeKey, (scope = { scope: instrument.scope, metrics: [] }));
      scope.metrics.push(metric);
    }
    return Promise.resolve({ resourceMetrics: { resource: this.#resource, scopeMetrics: [...byScope.values()] }, errors: [] });
  }
}
