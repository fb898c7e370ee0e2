/**
 * The console record of one span (format: docs/lens-setup.md, "console"; fields and their order:
 * `CONSOLE_SPAN_FIELDS` of `@gym/names`, which `gym trace` reads by and the exporter's test holds
 * this line to; spelled out here as one template, the cheapest way to write it): ids and name at the top level, so `jq -r '"\(.trace_id) \(.name)"'`
 * works on the raw output; the resource is not repeated on the line, only the process's identity.
 * @module
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ProcessIdentity } from './process-identity.js';
import { attributesJson, jsonNumber, jsonString } from './json-values.js';
import { durationMs, hrTimeToNanosString } from './time.js';

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

function eventsJson(span: ReadableSpan): string {
  return JSON.stringify(span.events.map((e) => ({ name: e.name, time_unix_nano: hrTimeToNanosString(e.time), attributes: e.attributes ?? {} })));
}

function linksJson(span: ReadableSpan): string {
  return JSON.stringify(span.links.map((l) => ({ trace_id: l.context.traceId, span_id: l.context.spanId, attributes: l.attributes ?? {} })));
}

/**
 * The record of `span` as one JSON line (no newline), built as a string: ids are hex and times are
 * digits, so they need no escaping; names and attributes are written as `JSON.stringify` would
 * write them (json-values.ts), messages go through it,
 * and the process's identity (`identity.tail`) was serialised once per process. Every span line
 * states its scope (serialised once per scope), also when it is the one the resource record
 * states: a reader then needs no join for it (`gym trace`'s store joins only the resource).
 */
export function spanLine(span: ReadableSpan, identity: ProcessIdentity): string {
  const ctx = span.spanContext();
  const parent = span.parentSpanContext?.spanId;
  const status = span.status;
  const scope = span.instrumentationScope;
  return (
    `{"type":"span","trace_id":"${ctx.traceId}","span_id":"${ctx.spanId}","parent_span_id":${parent === undefined ? 'null' : `"${parent}"`}` +
    `,"name":${jsonString(span.name)},"kind":"${KINDS[span.kind] ?? 'INTERNAL'}"` +
    `,"start_time_unix_nano":"${hrTimeToNanosString(span.startTime)}","end_time_unix_nano":"${hrTimeToNanosString(span.endTime)}"` +
    `,"duration_ms":${jsonNumber(durationMs(span.startTime, span.endTime))}` +
    `,"status":{"code":"${STATUS[status.code] ?? 'UNSET'}","message":${status.message === undefined ? 'null' : JSON.stringify(status.message)}}` +
    `,"attributes":${attributesJson(span.attributes)}` +
    (span.events.length === 0 ? '' : `,"events":${eventsJson(span)}`) +
    (span.links.length === 0 ? '' : `,"links":${linksJson(span)}`) +
    `,"scope":${scopeJson(scope)}` +
    `${identity.tail}}`
  );
}

// scopes are shared by every span of a tracer: serialise each once
const scopeJsonCache = new WeakMap<InstrumentationScope, string>();

function scopeJson(scope: InstrumentationScope): string {
  let json = scopeJsonCache.get(scope);
  if (json === undefined) {
    json = JSON.stringify({ name: scope.name, version: scope.version ?? null });
    scopeJsonCache.set(scope, json);
  }
  return json;
}
