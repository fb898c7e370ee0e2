/**
 * OTLP spans → our console span records (format: docs/lens-setup.md, "console"), field for field as the lens console exporter
 * writes them (`packages/lens/src/setup/exporters/span-record.ts`), so every `gym trace` command
 * and the documented `grep | jq` recipe read the receiver's files like a process's stdout.
 * @module
 */
import { decodeKeyValues } from '../otlp-values.js';
import { normalizeId } from '../read/ids.js';
import { normalizeKind, normalizeStatusCode } from '../read/normalize.js';
import { asObjects, durationMsBetween, scopeItems, unixTimeOf } from './otlp-shape.js';
import type { Obj, ServiceRecord } from './otlp-shape.js';

/** Records of an `ExportTraceServiceRequest`, and how many spans were unusable (bad ids). */
export interface SpanConversion {
  records: ServiceRecord[];
  rejected: number;
}

/**
 * Converts every span of a decoded `ExportTraceServiceRequest`. Never throws. Each line is built
 * as a string, key for key in the documented order, with the resource and scope serialised once
 * per group rather than once per span (half of a line's bytes); ids, kinds, status codes and
 * times need no escaping, everything else goes through `JSON.stringify`.
 */
export function spanRecordsOf(request: Obj): SpanConversion {
  const records: ServiceRecord[] = [];
  let rejected = 0;
  for (const group of scopeItems(request, 'resourceSpans', 'scopeSpans', 'instrumentationLibrarySpans', 'spans')) {
    const tail = `,"resource":${JSON.stringify(group.resource)},"scope":${JSON.stringify(group.scope)}}`;
    for (const s of group.items) {
      const traceId = normalizeId(s['traceId'], 16);
      const spanId = normalizeId(s['spanId'], 8);
      if (traceId === null || spanId === null) {
        rejected++;
        continue;
      }
      const parentId = normalizeId(s['parentSpanId'], 8);
      const start = unixTimeOf(s['startTimeUnixNano']);
      const end = unixTimeOf(s['endTimeUnixNano']);
      const status = (s['status'] ?? {}) as Obj;
      const message = status['message'];
      const events = asObjects(s['events']);
      const links = asObjects(s['links']);
      const line =
        `{"type":"span","trace_id":"${traceId}","span_id":"${spanId}","parent_span_id":${parentId === null ? 'null' : `"${parentId}"`}` +
        `,"name":${JSON.stringify(typeof s['name'] === 'string' ? s['name'] : '')},"kind":"${normalizeKind(s['kind'])}"` +
        `,"start_time":"${start.iso}","end_time":"${end.iso}","start_time_unix_nano":"${start.nanos}","end_time_unix_nano":"${end.nanos}"` +
        // 0 for a span sent without an end
        `,"duration_ms":${durationMsBetween(start, end)}` +
        `,"status":{"code":"${normalizeStatusCode(status['code'])}","message":${typeof message === 'string' && message !== '' ? JSON.stringify(message) : 'null'}}` +
        `,"attributes":${JSON.stringify(decodeKeyValues(s['attributes']))}` +
        `,"events":${events.length === 0 ? '[]' : JSON.stringify(events.map(eventOf))}` +
        `,"links":${links.length === 0 ? '[]' : JSON.stringify(links.map(linkOf))}` +
        tail;
      records.push({ service: group.service, line });
    }
  }
  return { records, rejected };
}

function eventOf(e: Obj): Obj {
  return { name: typeof e['name'] === 'string' ? e['name'] : '', time: unixTimeOf(e['timeUnixNano']).iso, attributes: decodeKeyValues(e['attributes']) };
}

function linkOf(l: Obj): Obj {
  return { trace_id: normalizeId(l['traceId'], 16) ?? '', span_id: normalizeId(l['spanId'], 8) ?? '', attributes: decodeKeyValues(l['attributes']) };
}
