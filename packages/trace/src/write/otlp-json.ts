/**
 * Writes spans as OTLP/JSON: one `ExportTraceServiceRequest` per line, spans grouped by resource
 * and scope — the OpenTelemetry Collector file exporter's format, which Jaeger and otel-tui
 * import. Ids are lowercase hex, 64-bit integers decimal strings, enums ints.
 * @module
 */
import { encodeKeyValues } from '../otlp-values.js';
import type { OtlpKeyValue } from '../otlp-values.js';
import type { SpanKindName, SpanRecord, SpanResource, StatusCodeName } from '../span-record.js';

const KIND: Record<SpanKindName, number> = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 };
const STATUS: Record<StatusCodeName, number> = { UNSET: 0, OK: 1, ERROR: 2 };

/** Options of {@link toOtlpJsonLines}. */
export interface OtlpWriteOptions {
  /** Spans per request line, to keep lines bounded. Default 1000. */
  maxSpansPerLine?: number;
}

/**
 * Groups `spans` by resource (and scope inside it) and yields one JSON line (no newline) per
 * `ExportTraceServiceRequest`.
 */
export function* toOtlpJsonLines(spans: Iterable<SpanRecord>, options: OtlpWriteOptions = {}): Generator<string> {
  const max = options.maxSpansPerLine ?? 1000;
  const byResource = new Map<SpanResource, SpanRecord[]>();
  for (const s of spans) {
    let list = byResource.get(s.resource);
    if (list === undefined) byResource.set(s.resource, (list = []));
    list.push(s);
  }
  for (const [resource, list] of byResource) {
    const attributes = encodeKeyValues(resource.attributes);
    for (let i = 0; i < list.length; i += max) {
      yield JSON.stringify({ resourceSpans: [{ resource: { attributes }, scopeSpans: scopeSpans(list.slice(i, i + max)) }] });
    }
  }
}

function scopeSpans(spans: SpanRecord[]): object[] {
  const byScope = new Map<string, { scope: { name: string; version?: string }; spans: object[] }>();
  for (const s of spans) {
    const scope = s.scope ?? { name: '' };
    const key = `${scope.name}\u0000${scope.version ?? ''}`;
    let g = byScope.get(key);
    if (g === undefined) byScope.set(key, (g = { scope, spans: [] }));
    g.spans.push(toOtlpSpan(s));
  }
  return [...byScope.values()];
}

/** One span in OTLP/JSON form. */
export function toOtlpSpan(s: SpanRecord): object {
  const span: Record<string, unknown> = {
    traceId: s.traceId,
    spanId: s.spanId,
    name: s.name,
    kind: KIND[s.kind],
    startTimeUnixNano: s.startNs.toString(),
    // An unended span is written with end 0, which OTLP readers (ours included) treat as open.
    endTimeUnixNano: s.ended ? s.endNs.toString() : '0',
    attributes: encodeKeyValues(s.attributes) satisfies OtlpKeyValue[],
    status: s.status.message === undefined ? { code: STATUS[s.status.code] } : { code: STATUS[s.status.code], message: s.status.message },
  };
  if (s.parentSpanId !== null) span['parentSpanId'] = s.parentSpanId;
  if (s.events.length > 0) span['events'] = s.events.map((e) => ({ timeUnixNano: e.timeNs.toString(), name: e.name, attributes: encodeKeyValues(e.attributes) }));
  return span;
}
