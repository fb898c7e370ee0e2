/**
 * The span handed to callbacks when their group is disabled.
 * @module
 */
import { INVALID_SPAN_CONTEXT, trace } from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';

/**
 * One shared non-recording span: every method returns `this` and records nothing, and
 * `isRecording()` is false, so code written against a live span runs unchanged.
 */
export const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
