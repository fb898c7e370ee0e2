/**
 * What both transports do with an export request: convert it to console records, append them to
 * the service files and count what arrived.
 * @module
 */
import { logRecordsOf } from './log-records.js';
import { metricRecordsOf } from './metric-records.js';
import type { OtlpSignal } from './otlp-protos.js';
import type { ConvertedExport, Obj } from './otlp-shape.js';
import type { ServiceFiles } from './service-files.js';
import { spanRecordsOf } from './span-records.js';

/** Items received so far. `rejectedSpans` had unusable ids and were not written. */
export interface ReceiverCounts {
  requests: number;
  spans: number;
  metrics: number;
  logs: number;
  rejectedSpans: number;
}

/** One accepted export, as reported to `onExport`. */
export interface ExportEvent {
  signal: OtlpSignal;
  transport: 'grpc' | 'http/protobuf' | 'http/json';
  /** Items written from this request (spans, metrics or log records). */
  items: number;
  rejected: number;
  /** Totals after this request. */
  counts: Readonly<ReceiverCounts>;
}

/** Writes one converted request; resolves once the lines are handed to the files. */
export type Ingest = (signal: OtlpSignal, converted: ConvertedExport, transport: ExportEvent['transport']) => Promise<void>;

/** The records of a request decoded to a plain object (OTLP/JSON, or protobuf through protobufjs). Never throws. */
export function convertObjectExport(signal: OtlpSignal, request: Obj): ConvertedExport {
  if (signal === 'traces') return spanRecordsOf(request);
  return { records: signal === 'metrics' ? metricRecordsOf(request) : logRecordsOf(request), rejected: 0 };
}

/** Builds the shared ingest function over `files`, updating `counts` and calling `onExport`. */
export function createIngest(files: ServiceFiles, counts: ReceiverCounts, onExport?: (event: ExportEvent) => void): Ingest {
  return async (signal, { records, rejected }, transport) => {
    if (records.length > 0) await files.write(records);
    counts.requests++;
    if (signal === 'traces') {
      counts.spans += records.length;
      counts.rejectedSpans += rejected;
    } else if (signal === 'metrics') counts.metrics += records.length;
    else counts.logs += records.length;
    onExport?.({ signal, transport, items: records.length, rejected, counts: { ...counts } });
  };
}
