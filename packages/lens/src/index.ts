/**
 * @gym/lens — OpenTelemetry instrumentation gated by span groups; knows nothing about gym.
 *
 * This root is the API instrumented code imports: span groups and their gates, the fast tracer and
 * its instruments, spans run in their own context, propagation headers, tracers. Setting telemetry
 * up (config, `setupTelemetry`, exporters, resources, pino) is `@gym/lens/setup`; the API shaped
 * as Python's nemo-lens (`managedSpan`, `spanCm`, `emitSpan`, …) is `@gym/lens/nemo-lens`.
 * Importing this module starts nothing, registers nothing and reads no environment.
 * @module
 */
export { SpanRegistry } from './span-registry.js';
export type { RegisterOptions, SpanGroupDeclaration, SpanRegistryApi, SpecResolution } from './span-registry.js';
export { SpanGroup, bindSpanGroupGate, isSpanGroupEnabled, setEnabledSpanGroups, setSpanGroupSpec } from './span-groups.js';
export { safeSetSpanAttributes } from './attributes.js';
export { recordSpanError, runInOwnSpan } from './run-in-span.js';
export { scrubString, setStringScrubber } from './scrub.js';
export type { StringScrubber } from './scrub.js';
export type { SpanOptions } from './run-in-span.js';
export { CLOCK_OFFSET_ENV, clockOffsetNs, hrTimeAt } from './clock.js';
export { LEAN_ROOT_CONTEXT } from './fast-tracer/lean-context.js';
export { getLeanTracer } from './fast-tracer/lean-tracer.js';
export { getLeanCounter, getLeanHistogram } from './fast-tracer/lean-metrics.js';
export type { BoundCounter, BoundHistogram, LeanCounter, LeanHistogram, LeanHistogramOptions, LeanInstrumentOptions } from './fast-tracer/lean-metrics.js';
export type { LeanTracer } from './fast-tracer/lean-tracer.js';
export { formatTraceparent, parseTraceparent } from './fast-tracer/traceparent.js';
export { getMeter, getTracer } from './tracer.js';
export { LENS_WARNINGS } from './warnings.js';
export type { LensWarningCode } from './warnings.js';
