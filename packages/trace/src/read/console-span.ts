/**
 * Converts one of our console span records (`{"type":"span","trace_id",…}`) to a
 * {@link SpanRecord}.
 * @module
 */
import type { SpanRecord, SpanSource } from '../span-record.js';
import { normalizeId } from './ids.js';
import { asAttributes, makeStatus, normalizeKind, normalizeStatusCode, readEvents, readLinks, serviceOf, spanTiming } from './normalize.js';
import { resourceOfRecord } from './resource-cache.js';
import type { ResourceCache } from './resource-cache.js';
import { anyTimeToNs } from './time.js';

/** True when `obj` has the shape of our console span record. */
export function isConsoleSpan(obj: Record<string, unknown>): boolean {
  return obj['type'] === 'span' && 'trace_id' in obj;
}

/** Converts a parsed console record; returns a reason string when a required field is unusable. */
export function fromConsoleSpan(obj: Record<string, unknown>, source: SpanSource, resources: ResourceCache): SpanRecord | string {
  const traceId = normalizeId(obj['trace_id'], 16);
  const spanId = normalizeId(obj['span_id'], 8);
  if (traceId === null) return 'invalid trace_id';
  if (spanId === null) return 'invalid span_id';
  const name = obj['name'];
  if (typeof name !== 'string') return 'missing name';
  const startNs = anyTimeToNs(obj['start_time_unix_nano'], obj['start_time']);
  if (startNs === null) return 'missing start time';
  const endRaw = anyTimeToNs(obj['end_time_unix_nano'], obj['end_time']);
  const status = (obj['status'] ?? {}) as Record<string, unknown>;
  const resource = resourceOfRecord(obj, source.file, resources);
  const scope = obj['scope'] as { name?: unknown; version?: unknown } | undefined;
  const links = readLinks(obj['links']);
  return {
    traceId,
    spanId,
    parentSpanId: normalizeId(obj['parent_span_id'], 8),
    name,
    kind: normalizeKind(obj['kind']),
    startNs,
    ...spanTiming(startNs, endRaw),
    status: makeStatus(normalizeStatusCode(status['code']), status['message']),
    attributes: asAttributes(obj['attributes']),
    events: readEvents(obj['events']),
    ...(links.length === 0 ? {} : { links }),
    service: serviceOf(resource.attributes),
    resource,
    scope: typeof scope?.name === 'string' ? { name: scope.name, ...(typeof scope.version === 'string' ? { version: scope.version } : {}) } : null,
    source,
  };
}
