/**
 * The console record of one span (format: docs/lens-setup.md, "console"; fields: `@gym/names`,
 * which `gym trace` reads by): ids and name at the top level, so `jq -r '"\(.trace_id) \(.name)"'`
 * works on the raw output.
 * @module
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ConsoleSpanRecord } from '@gym/names';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { durationMs, hrTimeToIso, hrTimeToNanosString } from './time.js';

const KINDS: Record<number, string> = {
  [SpanKind.INTERNAL]: 'INTERNAL',
  [SpanKind.SERVER]: 'SERVER',
  [SpanKind.CLIENT]: 'CLIENT',
  [SpanKind.PRODUCER]: 'PRODUCER',
  [SpanKind.CONSUMER]: 'CONSUMER',
};
const STATUS: Record<number, string> = {
  [SpanStatusCode.UNSET]: 'UNSET',
  [SpanStatusCode.OK]: 'OK',
  [SpanStatusCode.ERROR]: 'ERROR',
};

/** Builds the record of `span` (key order as documented). */
export function toSpanRecord(span: ReadableSpan): ConsoleSpanRecord {
  const ctx = span.spanContext();
  return {
    type: 'span',
    trace_id: ctx.traceId,
    span_id: ctx.spanId,
    parent_span_id: span.parentSpanContext?.spanId ?? null,
    name: span.name,
    kind: KINDS[span.kind] ?? 'INTERNAL',
    start_time: hrTimeToIso(span.startTime),
    end_time: hrTimeToIso(span.endTime),
    start_time_unix_nano: hrTimeToNanosString(span.startTime),
    end_time_unix_nano: hrTimeToNanosString(span.endTime),
    duration_ms: durationMs(span.startTime, span.endTime),
    status: { code: STATUS[span.status.code] ?? 'UNSET', message: span.status.message ?? null },
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, time: hrTimeToIso(e.time), attributes: e.attributes ?? {} })),
    links: span.links.map((l) => ({ trace_id: l.context.traceId, span_id: l.context.spanId, attributes: l.attributes ?? {} })),
    resource: { attributes: span.resource.attributes },
    scope: { name: span.instrumentationScope.name, version: span.instrumentationScope.version ?? null },
  };
}

// Resources and scopes are shared by every span of a process: serialise each once.
const resourceJson = new WeakMap<object, string>();
const scopeJson = new WeakMap<object, string>();

function once<K extends object>(cache: WeakMap<K, string>, key: K, make: () => unknown): string {
  let json = cache.get(key);
  if (json === undefined) {
    json = JSON.stringify(make());
    cache.set(key, json);
  }
  return json;
}

/**
 * The record of `span` as one JSON line (no newline): the same object as {@link toSpanRecord},
 * built as a string so the resource and scope are serialised once per process, not per span
 * (measured: the exporter's cost per span halved). Ids are hex and times are digits, so they need
 * no escaping; everything else goes through `JSON.stringify`.
 */
export function spanLine(span: ReadableSpan): string {
  const ctx = span.spanContext();
  const parent = span.parentSpanContext?.spanId;
  const status = span.status;
  const events = span.events.length === 0 ? '[]' : JSON.stringify(span.events.map((e) => ({ name: e.name, time: hrTimeToIso(e.time), attributes: e.attributes ?? {} })));
  const links = span.links.length === 0 ? '[]' : JSON.stringify(span.links.map((l) => ({ trace_id: l.context.traceId, span_id: l.context.spanId, attributes: l.attributes ?? {} })));
  const resource = once(resourceJson, span.resource, () => ({ attributes: span.resource.attributes }));
  const scope = once(scopeJson, span.instrumentationScope, () => ({ name: span.instrumentationScope.name, version: span.instrumentationScope.version ?? null }));
  return (
    `{"type":"span","trace_id":"${ctx.traceId}","span_id":"${ctx.spanId}","parent_span_id":${parent === undefined ? 'null' : `"${parent}"`}` +
    `,"name":${JSON.stringify(span.name)},"kind":"${KINDS[span.kind] ?? 'INTERNAL'}"` +
    `,"start_time":"${hrTimeToIso(span.startTime)}","end_time":"${hrTimeToIso(span.endTime)}"` +
    `,"start_time_unix_nano":"${hrTimeToNanosString(span.startTime)}","end_time_unix_nano":"${hrTimeToNanosString(span.endTime)}"` +
    `,"duration_ms":${durationMs(span.startTime, span.endTime)}` +
    `,"status":{"code":"${STATUS[status.code] ?? 'UNSET'}","message":${status.message === undefined ? 'null' : JSON.stringify(status.message)}}` +
    `,"attributes":${JSON.stringify(span.attributes)},"events":${events},"links":${links},"resource":${resource},"scope":${scope}}`
  );
}
