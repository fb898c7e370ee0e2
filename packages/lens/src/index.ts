/**
 * @gym/lens — OpenTelemetry instrumentation gated by span groups; knows nothing about gym.
 *
 * This root is the API instrumented code imports: span groups, spans, propagation, tracers.
 * Setting telemetry up (config, `setupTelemetry`, exporters, resources, pino) is `@gym/lens/setup`;
 * the names on the wire are `@gym/lens/names`. Importing this module starts nothing, registers
 * nothing and reads no environment.
 * @module
 */
export { ALL, SpanRegistry, parseSpec } from './span-registry.js';
export type { RegisterOptions, SpanGroupDeclaration, SpanRegistryApi, SpecResolution } from './span-registry.js';
export {
  SpanGroup,
  bindSpanGroupGate,
  enabledSpanGroups,
  isSpanGroupEnabled,
  pendingSpanGroups,
  refreshEnabledSpanGroups,
  setEnabledSpanGroups,
  setSpanGroupSpec,
  spanGroup,
  spanGroupSpec,
} from './span-groups.js';
export { DEFAULT_REDACT_KEYS, REDACTED, redactValue, safeSetSpanAttributes } from './attributes.js';
export type { LooseAttributes } from './attributes.js';
export { NOOP_SPAN } from './noop-span.js';
export { recordSpanError, runInOwnSpan } from './run-in-span.js';
export { scrubString, setStringScrubber } from './scrub.js';
export type { StringScrubber } from './scrub.js';
export type { SpanOptions } from './run-in-span.js';
export { isEnabled, managedSpan, spanCm } from './managed-span.js';
export { traceFn } from './trace-fn.js';
export { startGroupSpan } from './start-span.js';
export type { StartSpanOptions } from './start-span.js';
export { emitSpan, epochSecondsToNanos } from './emit-span.js';
export type { EmitSpanOptions, EpochSeconds } from './emit-span.js';
export { extractContext, injectContext } from './propagation.js';
export { CLOCK_OFFSET_ENV, clockOffsetNs, hrTimeAt, nowHrTime } from './clock.js';
export { LEAN_ROOT_CONTEXT } from './fast-tracer/lean-context.js';
export { getLeanTracer } from './fast-tracer/lean-tracer.js';
export { getLeanCounter, getLeanHistogram } from './fast-tracer/lean-metrics.js';
export type { BoundCounter, BoundHistogram, LeanCounter, LeanHistogram, LeanHistogramOptions, LeanInstrumentOptions } from './fast-tracer/lean-metrics.js';
export type { LeanTracer } from './fast-tracer/lean-tracer.js';
export { formatTraceparent, parseTraceparent } from './fast-tracer/traceparent.js';
export type { Carrier } from './propagation.js';
export { DEFAULT_SCOPE, getMeter, getTracer } from './tracer.js';
export { LENS_WARNINGS, lensWarn } from './warnings.js';
export type { LensWarningCode } from './warnings.js';
