/**
 * Counting what the SDK would lose silently: spans dropped by a full batch queue, and failed
 * exports. Both are reported as coded warnings, never silently.
 * @module
 */
import { createNoopMeter } from '@opentelemetry/api';
import type { Counter, Meter, MeterProvider } from '@opentelemetry/api';
import { lensWarn, LENS_WARNINGS } from '../warnings.js';

/** How long after a first unreported drop the warning is emitted, if nothing flushes before. */
const DROP_REPORT_DELAY_MS = 5000;

/**
 * Counts telemetry the pipeline lost. Its {@link ExportMonitor.meterProvider} is handed to the
 * batch span processor as its self-observability meter provider: the processor adds to a counter
 * with `error.type=queue_full` for every span it drops, which is the exact drop count.
 */
export class ExportMonitor {
  #dropped = 0;
  #reportedDropped = 0;
  #timer: NodeJS.Timeout | undefined;
  #failures = new Map<string, number>();
  #reportedFailures = new Map<string, number>();

  /** A meter provider whose counters count `queue_full` drops; everything else is a no-op. */
  readonly meterProvider: MeterProvider;

  constructor() {
    const base = createNoopMeter();
    const counter = { add: (value: number, attrs?: Record<string, unknown>) => this.#onProcessed(value, attrs) } as Counter;
    const meter = Object.create(base) as Meter;
    meter.createCounter = () => counter;
    this.meterProvider = { getMeter: () => meter };
  }

  /** Spans dropped because the batch queue was full. */
  get droppedSpans(): number {
    return this.#dropped;
  }

  /** Records a failed export of `count` items of `signal` (warns on the first one at once). */
  exportFailed(signal: string, count: number, error: unknown): void {
    const before = this.#failures.get(signal) ?? 0;
    this.#failures.set(signal, before + count);
    if (before === 0) {
      this.#reportedFailures.set(signal, count);
      const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
      lensWarn(LENS_WARNINGS.EXPORT_FAILED, `Exporting ${signal} failed (${reason}); ${count} item(s) lost. Check the exporter endpoint (OTEL_EXPORTER_OTLP_ENDPOINT).`);
    }
  }

  /** Emits one warning per kind of loss that grew since the last report. */
  report(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const delta = this.#dropped - this.#reportedDropped;
    if (delta > 0) {
      this.#reportedDropped = this.#dropped;
      lensWarn(
        LENS_WARNINGS.SPANS_DROPPED,
        `${delta} span(s) were dropped because the span queue was full (${this.#dropped} in total). ` +
          'Raise batch.maxQueueSize / maxExportBatchSize, lower scheduledDelayMillis, or narrow the span groups.',
      );
    }
    for (const [signal, total] of this.#failures) {
      const lost = total - (this.#reportedFailures.get(signal) ?? 0);
      if (lost <= 0) continue;
      this.#reportedFailures.set(signal, total);
      lensWarn(LENS_WARNINGS.EXPORT_FAILED, `Exporting ${signal} failed again: ${lost} more item(s) lost (${total} in total).`);
    }
  }

  #onProcessed(value: number, attrs: Record<string, unknown> | undefined): void {
    if (attrs?.['error.type'] !== 'queue_full') return;
    this.#dropped += value;
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.report(), DROP_REPORT_DELAY_MS);
      this.#timer.unref();
    }
  }
}
