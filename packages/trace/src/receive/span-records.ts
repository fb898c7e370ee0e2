/**
 * OTLP spans → our console span records (format: docs/lens-setup.md, "console"), field for field as the lens console exporter
 * writes them (`packages/lens/src/setup/exporters/span-record.ts`), so every `gym trace` command
 * and the documented `grep | jq` recipe read the receiver's files like a process's stdout.
 * @module
 */
import { decodeKeyValues } from '../otlp-values.js';
import { normalizeId } from '../read/ids.js';
import { normalizeKind, normalizeStatusCode } from '../read/normalize.js';
import { asObjects, nanosOf, scopeItems, timePair } from './otlp-shape.js';
import type { Obj, ServiceRecord } from './otlp-shape.js';

/** Records of an `ExportTraceServiceRequest`, and how many spans were unusable (bad ids). */
export interface SpanConversion {
  records: ServiceRecord[];
  rejected: number;
}

/** Converts every span of a decoded `ExportTraceServiceRequest`. Never throws. */
export function spanRecordsOf(request: Obj): SpanConversion {
  const records: ServiceRecord[] = [];
  let rejected = 0;
  for (const group of scopeItems(request, 'resourceSpans', 'scopeSpans', 'instrumentationLibrarySpans', 'spans')) {
    for (const s of group.items) {
      const traceId = normalizeId(s['traceId'], 16);
      const spanId = normalizeId(s['spanId'], 8);
      if (traceId === null || spanId === null) {
        rejected++;
        continue;
      }
      const startNs = nanosOf(s['startTimeUnixNano']);
      const endNs = nanosOf(s['endTimeUnixNano']);
      const start = timePair(startNs);
      const end = timePair(endNs);
      const status = (s['status'] ?? {}) as Obj;
      const message = status['message'];
      records.push({
        service: group.service,
        record: {
          type: 'span',
          trace_id: traceId,
          span_id: spanId,
          parent_span_id: normalizeId(s['parentSpanId'], 8),
          name: typeof s['name'] === 'string' ? s['name'] : '',
          kind: normalizeKind(s['kind']),
          start_time: start.iso,
          end_time: end.iso,
          start_time_unix_nano: start.nanos,
          end_time_unix_nano: end.nanos,
          // Rounded to the microsecond like the lens writer; 0 for a span sent without an end.
          duration_ms: endNs > startNs ? Math.round(Number(endNs - startNs) / 1000) / 1000 : 0,
          status: { code: normalizeStatusCode(status['code']), message: typeof message === 'string' && message !== '' ? message : null },
          attributes: decodeKeyValues(s['attributes']),
          events: asObjects(s['events']).map((e) => ({
            name: typeof e['name'] === 'string' ? e['name'] : '',
            time: timePair(nanosOf(e['timeUnixNano'])).iso,
            attributes: decodeKeyValues(e['attributes']),
          })),
          links: asObjects(s['links']).map((l) => ({ trace_id: normalizeId(l['traceId'], 16) ?? '', span_id: normalizeId(l['spanId'], 8) ?? '', attributes: decodeKeyValues(l['attributes']) })),
          resource: group.resource,
          scope: group.scope,
        },
      });
    }
  }
  return { records, rejected };
}
