/**
 * W3C `traceparent` without the propagator machinery: one header parsed by position and
 * validated, one header written by concatenation. A malformed value is treated as absent, so the
 * request starts a new trace (as the W3C propagator does).
 * @module
 */
import type { SpanContext } from '@opentelemetry/api';

/** version(2)-trace(32)-span(16)-flags(2), and a future version's fields after a dash: one match, not a test per field. */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(?:-|$)/;
const ZERO_TRACE = '00000000000000000000000000000000';
const ZERO_SPAN = '0000000000000000';

/** The remote span context of a `traceparent` header, or `undefined` when absent or malformed. */
export function parseTraceparent(header: string | string[] | undefined): SpanContext | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.length < 55) return undefined;
  const text = value.trim().toLowerCase();
  if (!TRACEPARENT.test(text)) return undefined;
  // version ff is invalid; version 00 has exactly these four fields
  if ((text[0] === 'f' && text[1] === 'f') || (text[0] === '0' && text[1] === '0' && text.length !== 55)) return undefined;
  const traceId = text.slice(3, 35);
  const spanId = text.slice(36, 52);
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, traceFlags: parseInt(text.slice(53, 55), 16) & 1, isRemote: true };
}

/** The `traceparent` header of a span context. */
export function formatTraceparent(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-0${context.traceFlags & 1}`;
}
