/**
 * The span handed to callbacks when their group is disabled, lens's one no-op span. A plain object
 * that imports nothing at run time, so `@gym/lens/fallbacks` hands out the same one where the
 * OpenTelemetry API is missing.
 * @module
 */
import type { Span, SpanContext } from '@opentelemetry/api';

/** The API's invalid span context (all-zero ids, not sampled), written out to need no import. */
const INVALID_CONTEXT: SpanContext = { traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 };

/**
 * One shared non-recording span: every method returns it or nothing and records nothing, and
 * `isRecording()` is false, so code written against a live span runs unchanged.
 */
export const NOOP_SPAN: Span = {
  spanContext: () => INVALID_CONTEXT,
  setAttribute: () => NOOP_SPAN,
  setAttributes: () => NOOP_SPAN,
  addEvent: () => NOOP_SPAN,
  addLink: () => NOOP_SPAN,
  addLinks: () => NOOP_SPAN,
  setStatus: () => NOOP_SPAN,
  updateName: () => NOOP_SPAN,
  end: () => undefined,
  isRecording: () => false,
  recordException: () => undefined,
};
