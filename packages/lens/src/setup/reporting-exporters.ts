/**
 * Exporter wrappers that tell the {@link ExportMonitor} about failed exports and never throw into
 * the SDK. The wrapped exporter keeps its own behaviour otherwise.
 * @module
 */
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ExportMonitor } from './export-monitor.js';

interface BatchExporter<T> {
  export(items: T, done: (result: ExportResult) => void): void;
  forceFlush?(): Promise<void>;
  shutdown(): Promise<void>;
}

class ReportingExporter<T> {
  readonly #inner: BatchExporter<T>;
  readonly #monitor: ExportMonitor;
  readonly #signal: string;
  readonly #count: (items: T) => number;

  constructor(inner: BatchExporter<T>, monitor: ExportMonitor, signal: string, count: (items: T) => number) {
    this.#inner = inner;
    this.#monitor = monitor;
    this.#signal = signal;
    this.#count = count;
  }

  export(items: T, done: (result: ExportResult) => void): void {
    const report = (result: ExportResult): void => {
      if (result.code !== ExportResultCode.SUCCESS) this.#monitor.exportFailed(this.#signal, this.#count(items), result.error);
      done(result);
    };
    try {
      this.#inner.export(items, report);
    } catch (error) {
      report({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  forceFlush(): Promise<void> {
    return Promise.resolve()
      .then(() => this.#inner.forceFlush?.())
      .catch(() => undefined);
  }

  shutdown(): Promise<void> {
    return Promise.resolve()
      .then(() => this.#inner.shutdown())
      .catch(() => undefined);
  }
}

/** Wraps a span exporter. */
export function reportingSpanExporter(inner: SpanExporter, monitor: ExportMonitor): SpanExporter {
  return new ReportingExporter<ReadableSpan[]>(inner, monitor, 'spans', (s) => s.length);
}

/** Wraps a log record exporter. */
export function reportingLogExporter(inner: LogRecordExporter, monitor: ExportMonitor): LogRecordExporter {
  return new ReportingExporter<ReadableLogRecord[]>(inner, monitor, 'log records', (l) => l.length);
}

/** Wraps a metric exporter, keeping its temporality and aggregation preferences. */
export function reportingMetricExporter(inner: PushMetricExporter, monitor: ExportMonitor): PushMetricExporter {
  const wrapped = new ReportingExporter<ResourceMetrics>(inner, monitor, 'metrics', () => 1) as unknown as PushMetricExporter;
  if (inner.selectAggregationTemporality) wrapped.selectAggregationTemporality = inner.selectAggregationTemporality.bind(inner);
  if (inner.selectAggregation) wrapped.selectAggregation = inner.selectAggregation.bind(inner);
  return wrapped;
}
