/**
 * Converts one of our console span records (DESIGN §5: `{"type":"span","trace_id",…}`) to a
 * {@link SpanRecord}.
 * @module
 */
import type { SpanEvent, SpanRecord, SpanSource } from '../span-record.js';
import { normalizeId } from './ids.js';
import { asAttributes, durationMsOf, makeStatus, normalizeKind, normalizeStatusCode, serviceOf } from './normalize.js';
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
  // An end before the start (e.g. 0) means the writer never saw the span end.
  const end = endRaw !== null && endRaw >= startNs ? endRaw : null;
  const endNs = end ?? startNs;
  const status = (obj['status'] ?? {}) as Record<string, unknown>;
  const resourceAttrs = asAttributes((obj['resource'] as Record<string, unknown> | undefined)?.['attributes']);
  const resource = resources.intern(resourceAttrs);
  const scope = obj['scope'] as { name?: unknown; version?: unknown } | undefined;
  return {
    traceId,
    spanId,
    parentSpanId: normalizeId(obj['parent_span_id'], 8),
    name,
    kind: normalizeKind(obj['kind']),
    startNs,
    endNs,
    durationMs: durationMsOf(startNs, endNs),
    ended: end !== null,
    status: makeStatus(normalizeStatusCode(status['code']), status['message']),
    attributes: asAttributes(obj['attributes']),
    events: readEvents(obj['events']),
    service: serviceOf(resource.attributes),
    resource,
    scope: typeof scope?.name === 'string' ? { name: scope.name, ...(typeof scope.version === 'string' ? { version: scope.version } : {}) } : null,
    source,
  };
}

function readEvents(raw: unknown): SpanEvent[] {
  if (!Array.isArray(raw) || raw.length === 0) return [];
  const out: SpanEvent[] = [];
  for (const e of raw as Array<Record<string, unknown>>) {
    if (e === null || typeof e !== 'object' || typeof e['name'] !== 'string') continue;
    const timeNs = anyTimeToNs(e['time_unix_nano'], e['time'] ?? e['timestamp']) ?? 0n;
    out.push({ name: e['name'], timeNs, attributes: asAttributes(e['attributes']) });
  }
  return out;
}
