/**
 * Histograms and counters whose attribute sets are bound once. A server records
 * `http.server.request.duration` for a handful of (method, route, status) sets, millions of
 * times; the SDK's `record` hashes the attributes on every call (about 1 µs and 1 KB of garbage,
 * `npm run bench -- lens-histogram`), a bound series is a bucket search and a few additions. With
 * a lens pipeline set up, the series are lens's own and reach the exporters through the metric
 * reader as ordinary points; otherwise (metrics set up by someone else, or not at all) a bound
 * series records on the global meter's instrument.
 * @module
 */
import { metrics } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';

/** One attribute set of a {@link LeanHistogram}. */
export interface BoundHistogram {
  /** Records `value` (negative and NaN values are ignored, as the SDK's histograms do). */
  record(value: number): void;
}

/** One attribute set of a {@link LeanCounter}. */
export interface BoundCounter {
  /** Adds `value` (negative and NaN values are ignored, as the SDK's counters do). */
  add(value: number): void;
}

/** An instrument recorded through series bound to their attributes once. */
export interface LeanInstrument<Bound> {
  /** The series of `attributes` (bounded sets only: bind once per set, keep the result). */
  bind(attributes: Attributes): Bound;
}

/** A histogram recorded through bound series. */
export type LeanHistogram = LeanInstrument<BoundHistogram>;
/** A monotonic counter recorded through bound series. */
export type LeanCounter = LeanInstrument<BoundCounter>;

/** How a lean instrument is described. */
export interface LeanInstrumentOptions {
  description: string;
  unit: string;
}

/** How a {@link LeanHistogram} is described and bucketed. */
export interface LeanHistogramOptions extends LeanInstrumentOptions {
  /** Explicit bucket boundaries; the SDK's default ones when absent. */
  boundaries?: readonly number[];
}

/** The instrumentation scope of a lean instrument. */
export interface LeanScope {
  name: string;
  version?: string;
}

/** What lens's pipeline offers: the instruments it aggregates and exports itself. */
export interface LeanMetricsSink {
  histogram(scope: LeanScope, name: string, options: LeanHistogramOptions): LeanHistogram;
  counter(scope: LeanScope, name: string, options: LeanInstrumentOptions): LeanCounter;
}

let sink: LeanMetricsSink | undefined;

/** Installs (or with `undefined`, removes) the sink lean instruments go to. Called by lens's setup. */
export function setLeanMetrics(next: LeanMetricsSink | undefined): void {
  sink = next;
}

function scopeOf(name: string, version: string | undefined): LeanScope {
  return version === undefined ? { name } : { name, version };
}

/** Histogram `name` of scope `scopeName`/`scopeVersion` for the current pipeline. Create it after setup, not at import. */
export function getLeanHistogram(scopeName: string, scopeVersion: string | undefined, name: string, options: LeanHistogramOptions): LeanHistogram {
  const scope = scopeOf(scopeName, scopeVersion);
  if (sink !== undefined) return sink.histogram(scope, name, options);
  const histogram = metrics.getMeter(scope.name, scope.version).createHistogram(name, {
    description: options.description,
    unit: options.unit,
    ...(options.boundaries === undefined ? {} : { advice: { explicitBucketBoundaries: [...options.boundaries] } }),
  });
  return { bind: (attributes) => ({ record: (value) => histogram.record(value, attributes) }) };
}

/** Counter `name` of scope `scopeName`/`scopeVersion` for the current pipeline. Create it after setup, not at import. */
export function getLeanCounter(scopeName: string, scopeVersion: string | undefined, name: string, options: LeanInstrumentOptions): LeanCounter {
  const scope = scopeOf(scopeName, scopeVersion);
  if (sink !== undefined) return sink.counter(scope, name, options);
  const counter = metrics.getMeter(scope.name, scope.version).createCounter(name, { description: options.description, unit: options.unit });
  return { bind: (attributes) => ({ add: (value) => counter.add(value, attributes) }) };
}
