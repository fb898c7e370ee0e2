/**
 * Exporter wrappers that tell the {@link ExportMonitor} about every export's outcome (items
 * confirmed, items failed) and never throw into the SDK. The wrapped exporter keeps its own
 * behaviour otherwise. An exporter that lost only part of a batch (the console writer) says so
 * with `lostItems` on the error of its result.
 * @module
 */
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ExportMonitor } from './export-monitor.js';
import { countMetricPoints } from './loss-tally.js';
import type { LossSignal } from './loss-tally.js';

/** An error of a partly failed export: how many of its items were lost. */
export interface PartialExportError extends Error {
  lostItems: number;
}

interface BatchExporter<T> {
  export(items: T, done: (result: ExportResult) => void): void;
  forceFlush?(): Promise<void>;
  shutdown(): Promise<void>;
}

class ReportingExporter<T> {
  readonly #inner: BatchExporter<T>;
  readonly #monitor: ExportMonitor;
  readonly #signal: LossSignal;
  readonly #count: (items: T) => number;

  constructor(inner: BatchExporter<T>, monitor: ExportMonitor, signal: LossSignal, count: (items: T) => number) {
    this.#inner = inner;
    this.#monitor = monitor;
    this.#signal = signal;
    this.#count = count;
  }

  export(items: T, done: (result: ExportResult) => void): void {
    const count = this.#count(items);
    let answered = false;
    const report = (result: ExportResult): void => {
      if (answered) return; // an exporter answering twice must not be counted twice
      answered = true;
      if (result.code === ExportResultCode.SUCCESS) this.#monitor.exported(this.#signal, count);
      else {
        const partial = (result.error as Partial<PartialExportError> | undefined)?.lostItems;
        const lost = typeof partial === 'number' && partial >= 0 && partial <= count ? partial : count;
        this.#monitor.exported(this.#signal, count - lost);
        this.#monitor.exportFailed(this.#signal, lost, result.error);
      }
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
  // metric points enter the pipeline when a collection hands them to the exporter
  const count = (batch: ResourceMetrics): number => {
    const points = countMetricPoints(batch);
    monitor.accepted('metric points', points);
    return points;
  };
  const wrapped = new ReportingExporter<ResourceMetrics>(inner, monitor, 'metric points', count) as unknown as PushMetricExporter;
  if (inner.selectAggregationTemporality) wrapped.selectAggregationTemporality = inner.selectAggregationTemporality.bind(inner);
  if (inner.selectAggregation) wrapped.selectAggregation = inner.selectAggregation.bind(inner);
  return wrapped;
}
