/**
 * Our spans as the OpenTelemetry SDK's `ReadableSpan`s, so the SDK's own OTLP exporters send them:
 * ids, timestamps, kinds, statuses, attributes, events, resources and scopes as they were recorded.
 * @module
 */
import { SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import type { Attributes as SdkAttributes, AttributeValue as SdkAttributeValue, HrTime } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Attributes, SpanKindName, SpanRecord, SpanResource } from '../span-record.js';

const KINDS: Record<SpanKindName, SpanKind> = { INTERNAL: SpanKind.INTERNAL, SERVER: SpanKind.SERVER, CLIENT: SpanKind.CLIENT, PRODUCER: SpanKind.PRODUCER, CONSUMER: SpanKind.CONSUMER };
const STATUS = { UNSET: SpanStatusCode.UNSET, OK: SpanStatusCode.OK, ERROR: SpanStatusCode.ERROR } as const;

/** Unix nanoseconds as the SDK's `[seconds, nanoseconds]`. */
export function hrTimeOf(ns: bigint): HrTime {
  return [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];
}

/** Converts spans, sharing one SDK `Resource` per resource of the input (the exporters group by it). */
export class ReadableSpanConverter {
  #resources = new Map<SpanResource, Resource>();

  convert(s: SpanRecord): ReadableSpan {
    let resource = this.#resources.get(s.resource);
    if (resource === undefined) this.#resources.set(s.resource, (resource = resourceFromAttributes(sdkAttributes(s.resource.attributes))));
    const context = { traceId: s.traceId, spanId: s.spanId, traceFlags: TraceFlags.SAMPLED };
    return {
      name: s.name,
      kind: KINDS[s.kind],
      spanContext: () => context,
      ...(s.parentSpanId === null ? {} : { parentSpanContext: { traceId: s.traceId, spanId: s.parentSpanId, traceFlags: TraceFlags.SAMPLED } }),
      startTime: hrTimeOf(s.startNs),
      endTime: hrTimeOf(s.endNs),
      duration: hrTimeOf(s.endNs - s.startNs),
      ended: true,
      status: { code: STATUS[s.status.code], ...(s.status.message === undefined ? {} : { message: s.status.message }) },
      attributes: sdkAttributes(s.attributes),
      links: (s.links ?? []).map((l) => ({ context: { traceId: l.traceId, spanId: l.spanId, traceFlags: TraceFlags.SAMPLED }, attributes: sdkAttributes(l.attributes) })),
      events: s.events.map((e) => ({ name: e.name, time: hrTimeOf(e.timeNs), attributes: sdkAttributes(e.attributes) })),
      resource,
      instrumentationScope: s.scope ?? { name: 'gym-trace-push' },
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  }
}

// The SDK's attribute values are scalars and arrays of scalars: a map value (OTLP kvlist, read
// from OTLP/JSON) is sent as its JSON text, a null is left out.
function sdkAttributes(attrs: Attributes): SdkAttributes {
  const out: SdkAttributes = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null) continue;
    if (Array.isArray(v)) out[k] = v.every((x) => typeof x !== 'object' || x === null) ? (v as SdkAttributeValue) : JSON.stringify(v);
    else out[k] = typeof v === 'object' ? JSON.stringify(v) : v;
  }
  return out;
}
