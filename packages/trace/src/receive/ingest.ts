/**
 * What both transports do with a decoded export request: convert it to console records, append
 * them to the service files and count what arrived.
 * @module
 */
import { logRecordsOf } from './log-records.js';
import { metricRecordsOf } from './metric-records.js';
import type { OtlpSignal } from './otlp-protos.js';
import type { Obj, ServiceRecord } from './otlp-shape.js';
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

/** Converts and writes one request; resolves once the lines are handed to the files. */
export type Ingest = (signal: OtlpSignal, request: Obj, transport: ExportEvent['transport']) => Promise<void>;

/** Builds the shared ingest function over `files`, updating `counts` and calling `onExport`. */
export function createIngest(files: ServiceFiles, counts: ReceiverCounts, onExport?: (event: ExportEvent) => void): Ingest {
  return async (signal, request, transport) => {
    let records: ServiceRecord[];
    let rejected = 0;
    if (signal === 'traces') {
      const c = spanRecordsOf(request);
      records = c.records;
      rejected = c.rejected;
    } else records = signal === 'metrics' ? metricRecordsOf(request) : logRecordsOf(request);
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
