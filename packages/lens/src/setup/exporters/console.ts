/**
 * The `console` exporter: one compact JSON object per line for spans, metrics and log records, on
 * one stream (stdout by default). Records are serialised synchronously and handed to a shared
 * {@link JsonLinesWriter} (which encodes them into reused buffers for a file or a socket); export
 * never throws. Records the writer had to drop are reported in the
 * export's result (a failure carrying `lostItems`), so the loss tally counts them.
 * @module
 */
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableLogRecord, LogRecordExporter } from '@opentelemetry/sdk-logs';
import { AggregationTemporality } from '@opentelemetry/sdk-metrics';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { countMetricPoints } from '../loss-tally.js';
import { writerFor } from './json-lines-writer.js';
import type { JsonLinesWriter, OutputStream } from './json-lines-writer.js';
import { toLogRecordLine } from './log-record.js';
import { toMetricRecords } from './metric-record.js';
import { spanLine } from './span-record.js';

const SUCCESS: ExportResult = { code: ExportResultCode.SUCCESS };
/**
 * Bench only (BENCHMARKS.md, `cpu-ab`): `export` discards spans before they are serialised,
 * `write` after, so a side-by-side run can price the console line and the file write apart.
 */
const BENCH_DISCARD = process.env['GYM_BENCH_CONSOLE_DISCARD'];
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- written, never read: the serialising must not be optimised away
let benchDiscarded = 0;

function writeRecords<T>(writer: JsonLinesWriter, items: readonly T[], toRecord: (item: T) => unknown): number {
  return writer.writeItems(items, (item) => JSON.stringify(toRecord(item)));
}

/** The result of an export that lost `lost` items: a failure carrying the count, so the loss tally is exact. */
function resultOf(lost: number): ExportResult {
  if (lost === 0) return SUCCESS;
  const error = Object.assign(new Error(`the console writer dropped ${lost} record(s)`), { lostItems: lost });
  return { code: ExportResultCode.FAILED, error };
}

abstract class ConsoleExporterBase {
  protected readonly writer: JsonLinesWriter;
  #shutdown = false;

  constructor(stream: OutputStream) {
    this.writer = writerFor(stream);
  }

  protected get isShutdown(): boolean {
    return this.#shutdown;
  }

  forceFlush(): Promise<void> {
    return this.writer.flush();
  }

  shutdown(): Promise<void> {
    this.#shutdown = true;
    return this.writer.flush();
  }
}

/** Writes one `{"type":"span",…}` line per span. */
export class ConsoleSpanExporter extends ConsoleExporterBase implements SpanExporter {
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (BENCH_DISCARD === 'export') return done(SUCCESS);
    if (BENCH_DISCARD === 'write') {
      for (const span of spans) benchDiscarded += spanLine(span).length;
      return done(SUCCESS);
    }
    done(resultOf(this.isShutdown ? spans.length : this.writer.writeItems(spans, spanLine)));
  }
}

/** Writes one `{"type":"metric",…}` line per metric per collection (cumulative temporality). */
export class ConsoleMetricExporter extends ConsoleExporterBase implements PushMetricExporter {
  export(batch: ResourceMetrics, done: (result: ExportResult) => void): void {
    if (this.isShutdown) return done(resultOf(countMetricPoints(batch)));
    try {
      // one line per metric; a dropped line loses the points it holds (counted as a whole batch when unknown)
      const lines = toMetricRecords(batch);
      const lost = writeRecords(this.writer, lines, (r) => r);
      done(resultOf(lost === 0 ? 0 : lost === lines.length ? countMetricPoints(batch) : lost));
    } catch {
      this.writer.countDropped(1);
      done(resultOf(countMetricPoints(batch)));
    }
  }

  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }
}

/** Writes one `{"type":"log",…}` line per log record. */
export class ConsoleLogRecordExporter extends ConsoleExporterBase implements LogRecordExporter {
  export(logs: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    done(resultOf(this.isShutdown ? logs.length : writeRecords(this.writer, logs, toLogRecordLine)));
  }
}
