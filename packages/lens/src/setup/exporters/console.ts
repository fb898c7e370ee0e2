/**
 * The `console` exporter: one compact JSON object per line for spans, metrics and log records, on
 * one stream (stdout by default). Records are serialised synchronously and handed to a shared
 * {@link JsonLinesWriter}; export never fails the batch processor and never throws.
 * @module
 */
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableLogRecord, LogRecordExporter } from '@opentelemetry/sdk-logs';
import { AggregationTemporality } from '@opentelemetry/sdk-metrics';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { writerFor } from './json-lines-writer.js';
import type { JsonLinesWriter, OutputStream } from './json-lines-writer.js';
import { toLogRecordLine } from './log-record.js';
import { toMetricRecords } from './metric-record.js';
import { spanLine } from './span-record.js';

const SUCCESS: ExportResult = { code: ExportResultCode.SUCCESS };

function writeLines<T>(writer: JsonLinesWriter, items: readonly T[], toLine: (item: T) => string): void {
  let text = '';
  let count = 0;
  for (const item of items) {
    try {
      text += `${toLine(item)}\n`;
      count++;
    } catch {
      writer.countDropped(1);
    }
  }
  writer.write(text, count);
}

function writeRecords<T>(writer: JsonLinesWriter, items: readonly T[], toRecord: (item: T) => unknown): void {
  writeLines(writer, items, (item) => JSON.stringify(toRecord(item)));
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
    if (!this.isShutdown) writeLines(this.writer, spans, spanLine);
    done(SUCCESS);
  }
}

/** Writes one `{"type":"metric",…}` line per metric per collection (cumulative temporality). */
export class ConsoleMetricExporter extends ConsoleExporterBase implements PushMetricExporter {
  export(batch: ResourceMetrics, done: (result: ExportResult) => void): void {
    if (!this.isShutdown) {
      try {
        writeRecords(this.writer, toMetricRecords(batch), (r) => r);
      } catch {
        this.writer.countDropped(1);
      }
    }
    done(SUCCESS);
  }

  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }
}

/** Writes one `{"type":"log",…}` line per log record. */
export class ConsoleLogRecordExporter extends ConsoleExporterBase implements LogRecordExporter {
  export(logs: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    if (!this.isShutdown) writeRecords(this.writer, logs, toLogRecordLine);
    done(SUCCESS);
  }
}
