/**
 * OTLP spans → our console span records (format: docs/lens-setup.md, "console"), field for field as the lens console exporter
 * writes them (`packages/lens/src/setup/exporters/span-record.ts`), so every `gym trace` command
 * and the documented `grep | jq` recipe read the receiver's files like a process's stdout.
 * @module
 */
import { decodeKeyValues } from '../otlp-values.js';
import { normalizeId } from '../read/ids.js';
import { normalizeKind, normalizeStatusCode } from '../read/normalize.js';
import type { Attributes, SpanKindName, StatusCodeName } from '../span-record.js';
import { asObjects, durationMsBetween, scopeItems, unixTimeOf } from './otlp-shape.js';
import type { ConvertedExport, Obj, ScopeItems, ServiceRecord, UnixTime } from './otlp-shape.js';

/** What a console span line holds, decoded from either form of an export request. */
export interface SpanLineParts {
  traceId: string;
  spanId: string;
  parentId: string | null;
  name: string;
  kind: SpanKindName;
  start: UnixTime;
  end: UnixTime;
  statusCode: StatusCodeName;
  /** The status message when one was sent (an empty one is written as null). */
  statusMessage: unknown;
  attributes: Attributes;
  events: Obj[];
  links: Obj[];
}

/** The part of every line of one resource and scope after the span's own fields, serialised once per group. */
export function groupTail(group: Pick<ScopeItems, 'resource' | 'scope'>): string {
  return `,"resource":${JSON.stringify(group.resource)},"scope":${JSON.stringify(group.scope)}}`;
}

/**
 * One span's console line, key for key in the documented order; ids, kinds, status codes and
 * times need no escaping, everything else goes through `JSON.stringify`.
 */
export function spanLine(p: SpanLineParts, tail: string): string {
  const message = p.statusMessage;
  return (
    `{"type":"span","trace_id":"${p.traceId}","span_id":"${p.spanId}","parent_span_id":${p.parentId === null ? 'null' : `"${p.parentId}"`}` +
    `,"name":${JSON.stringify(p.name)},"kind":"${p.kind}"` +
    `,"start_time":"${p.start.iso}","end_time":"${p.end.iso}","start_time_unix_nano":"${p.start.nanos}","end_time_unix_nano":"${p.end.nanos}"` +
    // 0 for a span sent without an end
    `,"duration_ms":${durationMsBetween(p.start, p.end)}` +
    `,"status":{"code":"${p.statusCode}","message":${typeof message === 'string' && message !== '' ? JSON.stringify(message) : 'null'}}` +
    `,"attributes":${JSON.stringify(p.attributes)}` +
    `,"events":${p.events.length === 0 ? '[]' : JSON.stringify(p.events)}` +
    `,"links":${p.links.length === 0 ? '[]' : JSON.stringify(p.links)}` +
    tail
  );
}

/**
 * Converts every span of a decoded `ExportTraceServiceRequest` (OTLP/JSON, or protobuf through
 * protobufjs). Never throws. The resource and scope are serialised once per group rather than
 * once per span (half of a line's bytes).
 */
export function spanRecordsOf(request: Obj): ConvertedExport {
  const records: ServiceRecord[] = [];
  let rejected = 0;
  for (const group of scopeItems(request, 'resourceSpans', 'scopeSpans', 'instrumentationLibrarySpans', 'spans')) {
    const tail = groupTail(group);
    for (const s of group.items) {
      const traceId = normalizeId(s['traceId'], 16);
      const spanId = normalizeId(s['spanId'], 8);
      if (traceId === null || spanId === null) {
        rejected++;
        continue;
      }
      const status = (s['status'] ?? {}) as Obj;
      const parts: SpanLineParts = {
        traceId,
        spanId,
        parentId: normalizeId(s['parentSpanId'], 8),
        name: typeof s['name'] === 'string' ? s['name'] : '',
        kind: normalizeKind(s['kind']),
        start: unixTimeOf(s['startTimeUnixNano']),
        end: unixTimeOf(s['endTimeUnixNano']),
        statusCode: normalizeStatusCode(status['code']),
        statusMessage: status['message'],
        attributes: decodeKeyValues(s['attributes']),
        events: asObjects(s['events']).map(eventOf),
        links: asObjects(s['links']).map(linkOf),
      };
      records.push({ service: group.service, line: spanLine(parts, tail) });
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
