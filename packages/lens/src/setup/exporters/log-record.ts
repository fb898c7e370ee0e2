/**
 * The console record of one log record. The resource is stated by the stream's resource record,
 * and the line ends with the process's identity (appended by the exporter, see process-identity.ts).
 * @module
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { hrTimeToIso, hrTimeToNanosString } from './time.js';

/** The JSON object written for one log record; ids only when the record is correlated with a span. */
export interface LogRecordLine {
  type: 'log';
  time: string;
  time_unix_nano: string;
  observed_time: string;
  severity_text: string | null;
  severity_number: number | null;
  body: unknown;
  attributes: Attributes;
  event_name?: string;
  trace_id?: string;
  span_id?: string;
  trace_flags?: number;
  scope: { name: string; version: string | null };
}

/** Builds the record of `log`. */
export function toLogRecordLine(log: ReadableLogRecord): LogRecordLine {
  const ctx = log.spanContext;
  return {
    type: 'log',
    time: hrTimeToIso(log.hrTime),
    time_unix_nano: hrTimeToNanosString(log.hrTime),
    observed_time: hrTimeToIso(log.hrTimeObserved),
    severity_text: log.severityText ?? null,
    severity_number: log.severityNumber ?? null,
    body: log.body ?? null,
    attributes: log.attributes as Attributes,
    ...(log.eventName !== undefined ? { event_name: log.eventName } : {}),
    ...(ctx !== undefined ? { trace_id: ctx.traceId, span_id: ctx.spanId, trace_flags: ctx.traceFlags } : {}),
    scope: { name: log.instrumentationScope.name, version: log.instrumentationScope.version ?? null },
  };
}
