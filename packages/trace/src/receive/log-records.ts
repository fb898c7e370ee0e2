/**
 * OTLP log records → our console log records (`{"type":"log",…}`), in the shape the lens console
 * exporter writes (`packages/lens/src/setup/exporters/log-record.ts`); `trace_id`/`span_id` only
 * when the record is correlated with a span.
 * @module
 */
import { decodeAnyValue, decodeKeyValues } from '../otlp-values.js';
import { normalizeId } from '../read/ids.js';
import { scopeItems, unixTimeOf } from './otlp-shape.js';
import type { Obj, ServiceRecord } from './otlp-shape.js';

/** Converts every log record of a decoded `ExportLogsServiceRequest`. Never throws. */
export function logRecordsOf(request: Obj): ServiceRecord[] {
  const out: ServiceRecord[] = [];
  for (const group of scopeItems(request, 'resourceLogs', 'scopeLogs', 'instrumentationLibraryLogs', 'logRecords')) {
    for (const l of group.items) {
      const observed = unixTimeOf(l['observedTimeUnixNano']);
      const t = unixTimeOf(l['timeUnixNano']);
      // OTLP: "use time_unix_nano if it is present, otherwise use observed_time_unix_nano".
      const time = t.nanos !== '0' ? t : observed;
      const traceId = normalizeId(l['traceId'], 16);
      const spanId = normalizeId(l['spanId'], 8);
      const severity = Number(l['severityNumber']);
      const eventName = l['eventName'];
      const record: Obj = {
        type: 'log',
        time: time.iso,
        time_unix_nano: time.nanos,
        observed_time: observed.iso,
        severity_text: typeof l['severityText'] === 'string' && l['severityText'] !== '' ? l['severityText'] : null,
        severity_number: Number.isInteger(severity) && severity > 0 ? severity : null,
        body: l['body'] === undefined ? null : decodeAnyValue(l['body']),
        attributes: decodeKeyValues(l['attributes']),
        ...(typeof eventName === 'string' && eventName !== '' ? { event_name: eventName } : {}),
        ...(traceId !== null && spanId !== null ? { trace_id: traceId, span_id: spanId, trace_flags: Number(l['flags'] ?? 0) & 0xff } : {}),
        resource: group.resource,
        scope: group.scope,
      };
      out.push({ service: group.service, line: JSON.stringify(record) });
    }
  }
  return out;
}
