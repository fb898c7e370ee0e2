/**
 * Process saturation as metrics, under the OpenTelemetry semantic-convention names for Node.js and
 * V8 (status: development): event-loop utilization and delay, GC pauses, heap per space. The values
 * are read when the meter collects; GC pauses arrive through a `PerformanceObserver`. Nothing runs
 * on a request. `initTelemetry` loads this module only when metrics are on, so a process without
 * telemetry never loads it.
 *
 * Hand-written rather than `@opentelemetry/instrumentation-runtime-node`: its last release for
 * Node 20 (0.36.1) fits the pins, but it does not record `v8js.memory.heap.limit` (it records
 * `v8js.memory.heap.space.size` in its place), and it would add `@opentelemetry/instrumentation`
 * with its module-hook packages as a runtime dependency (docs/observability/metrics.md).
 * @module
 */
import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import type { EventLoopUtilization, IntervalHistogram } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import type { Attributes, BatchObservableCallback, Meter, ObservableCallback, ObservableGauge } from '@opentelemetry/api';

/** The metric names, as in the semantic conventions. */
export const RUNTIME_METRIC = {
  EVENT_LOOP_UTILIZATION: 'nodejs.eventloop.utilization',
  EVENT_LOOP_DELAY_MIN: 'nodejs.eventloop.delay.min',
  EVENT_LOOP_DELAY_MAX: 'nodejs.eventloop.delay.max',
  EVENT_LOOP_DELAY_MEAN: 'nodejs.eventloop.delay.mean',
  EVENT_LOOP_DELAY_STDDEV: 'nodejs.eventloop.delay.stddev',
  EVENT_LOOP_DELAY_P50: 'nodejs.eventloop.delay.p50',
  EVENT_LOOP_DELAY_P90: 'nodejs.eventloop.delay.p90',
  EVENT_LOOP_DELAY_P99: 'nodejs.eventloop.delay.p99',
  GC_DURATION: 'v8js.gc.duration',
  HEAP_USED: 'v8js.memory.heap.used',
  HEAP_LIMIT: 'v8js.memory.heap.limit',
} as const;

/** The attribute keys, as in the semantic conventions. */
export const RUNTIME_ATTR = {
  GC_TYPE: 'v8js.gc.type',
  HEAP_SPACE_NAME: 'v8js.heap.space.name',
} as const;

/**
 * Sampling period of the event-loop delay histogram (Node's default, and the instrumentation
 * package's). A sample is the time between two timer wake-ups, so an idle loop reads about this.
 */
export const EVENT_LOOP_DELAY_RESOLUTION_MS = 10;

/**
 * Bucket bounds of `v8js.gc.duration` in seconds: the semantic conventions' 0.01, 0.1, 1 and 10,
 * with finer steps below 10 ms, where scavenges (minor GCs) fall.
 */
export const GC_DURATION_S_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** Running runtime metrics. */
export interface RuntimeMetrics {
  /** Stops the observer, the delay histogram and the callbacks. Idempotent. */
  stop(): void;
}

/** Options of {@link startRuntimeMetrics}. */
export interface RuntimeMetricsOptions {
  /** Event-loop delay sampling period. Default {@link EVENT_LOOP_DELAY_RESOLUTION_MS}. */
  resolutionMs?: number;
}

const GC_TYPES: Record<number, Attributes> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: { [RUNTIME_ATTR.GC_TYPE]: 'major' },
  [constants.NODE_PERFORMANCE_GC_MINOR]: { [RUNTIME_ATTR.GC_TYPE]: 'minor' },
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: { [RUNTIME_ATTR.GC_TYPE]: 'incremental' },
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: { [RUNTIME_ATTR.GC_TYPE]: 'weakcb' },
};

/**
 * Registers the runtime metrics on `meter`. Each collection reports the event-loop utilization and
 * delay of the time since the previous collection (the delay histogram is reset after each), and
 * the heap as it is then; every GC pause is recorded as it is reported. Never throws: a part Node
 * cannot provide is left out. Nothing it starts keeps the process alive.
 * @example
 * const runtime = startRuntimeMetrics(meter);
 * process.once('beforeExit', () => runtime.stop());
 */
export function startRuntimeMetrics(meter: Meter, options: RuntimeMetricsOptions = {}): RuntimeMetrics {
  const stops: (() => void)[] = [];
  const guard = (part: () => (() => void) | undefined) => {
    try {
      const stop = part();
      if (stop !== undefined) stops.push(stop);
    } catch {
      // a runtime without this part (perf_hooks or v8 API missing) reports the others
    }
  };
  guard(() => eventLoopUtilization(meter));
  guard(() => eventLoopDelay(meter, options.resolutionMs ?? EVENT_LOOP_DELAY_RESOLUTION_MS));
  guard(() => gcDuration(meter));
  guard(() => heapSpaces(meter));
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      for (const stop of stops) {
        try {
          stop();
        } catch {
          // stopping one part must not leave the others running
        }
      }
    },
  };
}

function eventLoopUtilization(meter: Meter): () => void {
  const gauge = meter.createObservableGauge(RUNTIME_METRIC.EVENT_LOOP_UTILIZATION, { unit: '1', description: 'Event loop utilization since the previous collection (0..1)' });
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const callback: ObservableCallback = (result) => {
    const now = performance.eventLoopUtilization();
    result.observe(performance.eventLoopUtilization(now, last).utilization);
    last = now;
  };
  gauge.addCallback(callback);
  return () => gauge.removeCallback(callback);
}

function eventLoopDelay(meter: Meter, resolutionMs: number): () => void {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  const gauge = (name: string, what: string) => meter.createObservableGauge(name, { unit: 's', description: `Event loop delay, ${what}, since the previous collection` });
  const min = gauge(RUNTIME_METRIC.EVENT_LOOP_DELAY_MIN, 'minimum');
  const max = gauge(RUNTIME_METRIC.EVENT_LOOP_DELAY_MAX, 'maximum');
  const mean = gauge(RUNTIME_METRIC.EVENT_LOOP_DELAY_MEAN, 'mean');
  const stddev = gauge(RUNTIME_METRIC.EVENT_LOOP_DELAY_STDDEV, 'standard deviation');
  const p50 = gauge(RUNTIME_METRIC.EVENT_LOOP_DELAY_P50, '50th percentile');
  const p90 = gauge(RUNTIME_METRIC.EVENT_LOOP_DELAY_P90, '90th percentile');
  const p99 = gauge(RUNTIME_METRIC.EVENT_LOOP_DELAY_P99, '99th percentile');
  const observables: ObservableGauge[] = [min, max, mean, stddev, p50, p90, p99];
  const callback: BatchObservableCallback = (result) => {
    // no sample since the last collection (a loop blocked the whole time records one, late): nothing to say yet
    if (histogram.count === 0) return;
    const seconds = (ns: number) => ns / 1e9;
    result.observe(min, seconds(histogram.min));
    result.observe(max, seconds(histogram.max));
    result.observe(mean, seconds(histogram.mean));
    result.observe(stddev, seconds(histogram.stddev));
    result.observe(p50, seconds(histogram.percentile(50)));
    result.observe(p90, seconds(histogram.percentile(90)));
    result.observe(p99, seconds(histogram.percentile(99)));
    histogram.reset();
  };
  meter.addBatchObservableCallback(callback, observables);
  return () => {
    meter.removeBatchObservableCallback(callback, observables);
    histogram.disable();
  };
}

function gcDuration(meter: Meter): () => void {
  const histogram = meter.createHistogram(RUNTIME_METRIC.GC_DURATION, { unit: 's', description: 'Garbage collection pause, by kind', advice: { explicitBucketBoundaries: GC_DURATION_S_BUCKETS } });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      histogram.record(entry.duration / 1000, kind === undefined ? undefined : GC_TYPES[kind]);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

function heapSpaces(meter: Meter): () => void {
  const used = meter.createObservableGauge(RUNTIME_METRIC.HEAP_USED, { unit: 'By', description: 'V8 heap memory in use, by heap space' });
  const limit = meter.createObservableGauge(RUNTIME_METRIC.HEAP_LIMIT, { unit: 'By', description: 'V8 heap memory reserved, by heap space' });
  const observables = [used, limit];
  const attributes = new Map<string, Attributes>();
  const callback: BatchObservableCallback = (result) => {
    for (const space of getHeapSpaceStatistics()) {
      let attrs = attributes.get(space.space_name);
      if (attrs === undefined) attributes.set(space.space_name, (attrs = { [RUNTIME_ATTR.HEAP_SPACE_NAME]: space.space_name }));
      result.observe(used, space.space_used_size, attrs);
      result.observe(limit, space.space_size, attrs);
    }
  };
  meter.addBatchObservableCallback(callback, observables);
  return () => meter.removeBatchObservableCallback(callback, observables);
}
