/**
 * Converts the OpenTelemetry Python SDK's console span shape (`ReadableSpan.to_json()`: ids under
 * `context` with `0x` prefixes, `parent_id`, `kind: "SpanKind.SERVER"`, `status.status_code`,
 * ISO times) to a {@link SpanRecord}.
 * @module
 */
import type { SpanRecord, SpanSource } from '../span-record.js';
import { normalizeId } from './ids.js';
import { asAttributes, makeStatus, normalizeKind, normalizeStatusCode, readEvents, serviceOf, spanTiming } from './normalize.js';
import type { ResourceCache } from './resource-cache.js';
import { isoToNs } from './time.js';

/** True when `obj` has the Python SDK span shape. */
export function isPythonSpan(obj: Record<string, unknown>): boolean {
  const ctx = obj['context'];
  return typeof obj['name'] === 'string' && ctx !== null && typeof ctx === 'object' && 'span_id' in ctx;
}

/** Converts a parsed Python SDK span; returns a reason string when a required field is unusable. */
export function fromPythonSpan(obj: Record<string, unknown>, source: SpanSource, resources: ResourceCache): SpanRecord | string {
  const ctx = obj['context'] as Record<string, unknown>;
  const traceId = normalizeId(ctx['trace_id'], 16);
  const spanId = normalizeId(ctx['span_id'], 8);
  if (traceId === null) return 'invalid context.trace_id';
  if (spanId === null) return 'invalid context.span_id';
  const startNs = typeof obj['start_time'] === 'string' ? isoToNs(obj['start_time']) : null;
  if (startNs === null) return 'missing start_time';
  const endRaw = typeof obj['end_time'] === 'string' ? isoToNs(obj['end_time']) : null;
  const status = (obj['status'] ?? {}) as Record<string, unknown>;
  const resource = resources.intern(asAttributes((obj['resource'] as Record<string, unknown> | undefined)?.['attributes']));
  return {
    traceId,
    spanId,
    parentSpanId: normalizeId(obj['parent_id'], 8),
    name: obj['name'] as string,
    kind: normalizeKind(obj['kind']),
    startNs,
    ...spanTiming(startNs, endRaw),
    status: makeStatus(normalizeStatusCode(status['status_code']), status['description']),
    attributes: asAttributes(obj['attributes']),
    events: readEvents(obj['events']),
    service: serviceOf(resource.attributes),
    resource,
    scope: null,
    source,
  };
}
