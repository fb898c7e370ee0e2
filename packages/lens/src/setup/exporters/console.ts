/**
 * The `console` exporter: one compact JSON object per line for spans, metrics and log records, on
 * one stream (stdout by default). Records are serialised synchronously and handed to a shared
 * {@link JsonLinesWriter} (which encodes them into reused buffers for a file or a socket); export
 * never throws. Records the writer had to drop are reported in the
 * export's result (a failure carrying `lostItems`), so the loss tally counts them.
 * @module
 */
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult, InstrumentationScope } from '@opentelemetry/core';
import type { ReadableLogRecord, LogRecordExporter } from '@opentelemetry/sdk-logs';
import { AggregationTemporality } from '@opentelemetry/sdk-metrics';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { countMetricPoints } from '../loss-tally.js';
import { writerFor } from './json-lines-writer.js';
import type { AppendedLineBatching, AppendedOutcome, JsonLinesWriter, OutputStream } from './json-lines-writer.js';
import { toLogRecordLine } from './log-record.js';
import { toMetricRecords } from './metric-record.js';
import type { RecordResource } from './process-identity.js';
import { spanLine } from './span-record.js';

const SUCCESS: ExportResult = { code: ExportResultCode.SUCCESS };
/**
 * Bench only (BENCHMARKS.md, `cpu-ab`): `export` discards spans before they are serialised,
 * `write` after, so a side-by-side run can price the console line and the file write apart.
 */
const BENCH_DISCARD = process.env['GYM_BENCH_CONSOLE_DISCARD'];
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- written, never read: the serialising must not be optimised away
let benchDiscarded = 0;

/**
 * Writes `items` as records of `resource`'s process: each record's JSON with the process's
 * identity appended, the resource record in front when the stream needs it.
 */
function writeRecords<T>(writer: JsonLinesWriter, resource: RecordResource, items: readonly T[], toRecord: (item: T) => unknown): number {
  const identity = writer.identityOf(resource);
  return writer.writeItems(items, (item) => {
    const json = JSON.stringify(toRecord(item));
    return writer.statement(identity) + json.slice(0, -1) + identity.tail + '}';
  });
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

  /** `ownScope`: the scope of the process's own spans, stated once in the resource record instead of on their lines. */
  constructor(stream: OutputStream, ownScope?: InstrumentationScope) {
    this.writer = writerFor(stream, ownScope);
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

/**
 * Writes one `{"type":"span",…}` line per span: the spans of a batch processor's export, and (the
 * lean path) each of gym's own spans as it ends, through {@link writeSpan}.
 */
export class ConsoleSpanExporter extends ConsoleExporterBase implements SpanExporter {
  #outcome: AppendedOutcome = () => undefined;

  /**
   * Readies {@link writeSpan}: how its lines are batched to the stream, and `outcome`, which hears
   * how many of them each batch wrote and lost.
   */
  writeSpansAsTheyEnd(batching: Partial<AppendedLineBatching>, outcome: AppendedOutcome): void {
    this.#outcome = outcome;
    this.writer.batchAppendedLines(batching, outcome);
  }

  /**
   * Encodes `span`'s line at once into the writer's lines not yet written (`JsonLinesWriter.append`):
   * the span is garbage as soon as it has ended, instead of waiting in a batch processor's queue. A
   * line that cannot be made, or a span after shutdown, is lost at once.
   */
  writeSpan(span: ReadableSpan): void {
    const outcome = this.#outcome;
    if (BENCH_DISCARD === 'export') return outcome(1, 0);
    if (this.isShutdown) return outcome(0, 1);
    const writer = this.writer;
    const identity = writer.identityOf(span.resource);
    let line: string;
    try {
      line = spanLine(span, identity);
    } catch {
      writer.countDropped(1);
      return outcome(0, 1);
    }
    if (BENCH_DISCARD !== 'write') return writer.append(writer.statement(identity) + line);
    benchDiscarded += line.length;
    outcome(1, 0);
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (BENCH_DISCARD === 'export') return done(SUCCESS);
    const writer = this.writer;
    if (BENCH_DISCARD === 'write') {
      for (const span of spans) benchDiscarded += spanLine(span, writer.identityOf(span.resource)).length;
      return done(SUCCESS);
    }
    if (this.isShutdown) return done(resultOf(spans.length));
    const lost = writer.writeItems(spans, (span) => {
      const identity = writer.identityOf(span.resource);
      const line = spanLine(span, identity);
      return writer.statement(identity) + line;
    });
    done(resultOf(lost));
  }
}

/** Writes one `{"type":"metric",…}` line per metric per collection (cumulative temporality). */
export class ConsoleMetricExporter extends ConsoleExporterBase implements PushMetricExporter {
  export(batch: ResourceMetrics, done: (result: ExportResult) => void): void {
    if (this.isShutdown) return done(resultOf(countMetricPoints(batch)));
    try {
      // one line per metric; a dropped line loses the points it holds (counted as a whole batch when unknown)
      const lines = toMetricRecords(batch);
      const lost = writeRecords(this.writer, batch.resource, lines, (r) => r);
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
    if (this.isShutdown || logs.length === 0) return done(resultOf(this.isShutdown ? logs.length : 0));
    // a process's log records share its resource
    done(resultOf(writeRecords(this.writer, logs[0]!.resource, logs, toLogRecordLine)));
  }
}
