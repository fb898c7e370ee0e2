/**
 * Field normalisers shared by the readers: kinds, status codes, attribute maps, durations.
 * @module
 */
import type { Attributes, AttributeValue, SpanEvent, SpanKindName, SpanLink, StatusCodeName } from '../span-record.js';
import { normalizeId } from './ids.js';
import { anyTimeToNs } from './time.js';

const KIND_BY_INT: readonly SpanKindName[] = ['INTERNAL', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const KINDS = new Set<string>(['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER']);

/**
 * Accepts `SERVER`, `SpanKind.SERVER` (Python), `SPAN_KIND_SERVER` (proto enum name) and the
 * OTLP ints (0 unspecified and 1 → INTERNAL, 2 SERVER, 3 CLIENT, 4 PRODUCER, 5 CONSUMER).
 */
export function normalizeKind(raw: unknown): SpanKindName {
  if (typeof raw === 'number') return KIND_BY_INT[raw] ?? 'INTERNAL';
  if (typeof raw !== 'string') return 'INTERNAL';
  const up = raw
    .toUpperCase()
    .replace(/^SPANKIND\./, '')
    .replace(/^SPAN_KIND_/, '');
  return KINDS.has(up) ? (up as SpanKindName) : 'INTERNAL';
}

/** Accepts `ERROR`, `StatusCode.ERROR`, `STATUS_CODE_ERROR` and OTLP ints (0 UNSET, 1 OK, 2 ERROR). */
export function normalizeStatusCode(raw: unknown): StatusCodeName {
  if (typeof raw === 'number') return raw === 2 ? 'ERROR' : raw === 1 ? 'OK' : 'UNSET';
  if (typeof raw !== 'string') return 'UNSET';
  const up = raw.toUpperCase();
  if (up.endsWith('ERROR')) return 'ERROR';
  if (up.endsWith('OK')) return 'OK';
  return 'UNSET';
}

/** Builds a status object, dropping empty messages. */
export function makeStatus(code: StatusCodeName, message: unknown): { code: StatusCodeName; message?: string } {
  return typeof message === 'string' && message.length > 0 ? { code, message } : { code };
}

/** Keeps a plain JSON object as an attribute map; anything else becomes `{}`. */
export function asAttributes(raw: unknown): Attributes {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return raw as Record<string, AttributeValue>;
}

/** Reads `service.name` from resource attributes. */
export function serviceOf(resource: Attributes): string {
  const s = resource['service.name'];
  return typeof s === 'string' && s.length > 0 ? s : 'unknown_service';
}

/** Duration in ms from ns instants, never negative. */
export function durationMsOf(startNs: bigint, endNs: bigint): number {
  return endNs > startNs ? Number(endNs - startNs) / 1e6 : 0;
}

/**
 * End, duration and whether the writer saw the span end, from its start and its raw end: a missing
 * end, or one before the start (e.g. 0), means it never ended; such a span lasts zero.
 */
export function spanTiming(startNs: bigint, endRaw: bigint | null): { endNs: bigint; durationMs: number; ended: boolean } {
  const ended = endRaw !== null && endRaw >= startNs;
  const endNs = ended ? endRaw : startNs;
  return { endNs, durationMs: durationMsOf(startNs, endNs), ended };
}

/** The links of a console record (`[{trace_id, span_id, attributes}]`); a link without valid ids is left out. */
export function readLinks(raw: unknown): SpanLink[] {
  if (!Array.isArray(raw) || raw.length === 0) return [];
  const out: SpanLink[] = [];
  for (const l of raw as Array<Record<string, unknown>>) {
    if (l === null || typeof l !== 'object') continue;
    const traceId = normalizeId(l['trace_id'], 16);
    const spanId = normalizeId(l['span_id'], 8);
    if (traceId !== null && spanId !== null) out.push({ traceId, spanId, attributes: asAttributes(l['attributes']) });
  }
  return out;
}

/** The events of a JSON span record: `{name, time_unix_nano | time | timestamp, attributes}`. */
export function readEvents(raw: unknown): SpanEvent[] {
  if (!Array.isArray(raw) || raw.length === 0) return [];
  const out: SpanEvent[] = [];
  for (const e of raw as Array<Record<string, unknown>>) {
    if (e === null || typeof e !== 'object' || typeof e['name'] !== 'string') continue;
    const timeNs = anyTimeToNs(e['time_unix_nano'], e['time'] ?? e['timestamp']) ?? 0n;
    out.push({ name: e['name'], timeNs, attributes: asAttributes(e['attributes']) });
  }
  return out;
}
