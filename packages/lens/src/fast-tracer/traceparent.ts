/**
 * W3C `traceparent` without the propagator machinery: one header parsed by position and
 * validated, one header written by concatenation. A malformed value is treated as absent, so the
 * request starts a new trace (as the W3C propagator does).
 * @module
 */
import type { SpanContext } from '@opentelemetry/api';

const HEX = /^[0-9a-f]+$/;
const ZERO_TRACE = '00000000000000000000000000000000';
const ZERO_SPAN = '0000000000000000';

/** The remote span context of a `traceparent` header, or `undefined` when absent or malformed. */
export function parseTraceparent(header: string | string[] | undefined): SpanContext | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.length < 55) return undefined;
  const text = value.trim().toLowerCase();
  // version(2)-trace(32)-span(16)-flags(2); a future version may append fields after a dash
  if (text[2] !== '-' || text[35] !== '-' || text[52] !== '-' || (text.length > 55 && text[55] !== '-')) return undefined;
  const version = text.slice(0, 2);
  if (version === 'ff' || (version === '00' && text.length !== 55)) return undefined;
  const traceId = text.slice(3, 35);
  const spanId = text.slice(36, 52);
  const flags = text.slice(53, 55);
  if (!HEX.test(version) || !HEX.test(traceId) || !HEX.test(spanId) || !HEX.test(flags)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, traceFlags: parseInt(flags, 16) & 1, isRemote: true };
}

/** The `traceparent` header of a span context. */
export function formatTraceparent(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-0${context.traceFlags & 1}`;
}
