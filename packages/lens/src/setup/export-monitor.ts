/**
 * Counting what the SDK would lose silently: spans dropped by a full batch queue, failed exports,
 * and (through its {@link LossTally}) everything that entered the pipeline and was never confirmed
 * exported. All are reported as coded warnings, never silently.
 * @module
 */
import { createNoopMeter } from '@opentelemetry/api';
import type { Counter, Meter, MeterProvider } from '@opentelemetry/api';
import { lensWarn, LENS_WARNINGS } from '../warnings.js';
import { LossTally } from './loss-tally.js';
import type { LossSignal, TelemetryLosses } from './loss-tally.js';

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
  readonly #tally = new LossTally();
  #finalReported = false;

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

  /** Counts `count` items of `signal` entering the pipeline. */
  accepted(signal: LossSignal, count: number): void {
    this.#tally.accepted(signal, count);
  }

  /** Counts `count` items of `signal` an exporter confirmed. */
  exported(signal: LossSignal, count: number): void {
    this.#tally.exported(signal, count);
  }

  /** Export answers so far, successes and failures: a shutdown waits while this grows. */
  get answers(): number {
    return this.#tally.answers;
  }

  /** What this process lost so far, per signal. */
  losses(): TelemetryLosses {
    return this.#tally.losses();
  }

  /** Records a failed export of `count` items of `signal` (warns on the first one at once). */
  exportFailed(signal: LossSignal, count: number, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    this.#tally.failed(signal, count, reason);
    if (count === 0) return;
    const before = this.#failures.get(signal) ?? 0;
    this.#failures.set(signal, before + count);
    if (before === 0) {
      this.#reportedFailures.set(signal, count);
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

  /**
   * At shutdown, once: one LENS_W011 warning with the exact totals of everything this process lost
   * (nothing when nothing was). After this, nothing more can be exported.
   */
  reportFinal(): void {
    this.report();
    if (this.#finalReported) return;
    this.#finalReported = true;
    const lost = this.#tally.describe();
    if (lost !== undefined) lensWarn(LENS_WARNINGS.TELEMETRY_LOST, `Telemetry lost by this process: ${lost}`);
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
