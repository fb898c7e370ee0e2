/**
 * @gym/lens/nemo-lens — the API of Python's nemo-lens, in TypeScript: span groups by name
 * (`spanGroup`, `isEnabled`), spans around a function or a block (`managedSpan`, `spanCm`,
 * `traceFn`, `startGroupSpan`), spans from recorded times (`emitSpan`), W3C propagation over a plain
 * carrier (`injectContext`, `extractContext`) and attribute redaction. For instrumentation written
 * as nemo-lens users write it; gym's own servers use the root's span-group gates and fast tracer.
 * `@gym/lens/fallbacks` has the same signatures with no-op bodies.
 * @module
 */
export { ALL, parseSpec } from './span-registry.js';
export { enabledSpanGroups, pendingSpanGroups, refreshEnabledSpanGroups, spanGroup, spanGroupSpec } from './span-groups.js';
export { DEFAULT_REDACT_KEYS, REDACTED, redactValue } from './attributes.js';
export type { LooseAttributes } from './attributes.js';
export { NOOP_SPAN } from './noop-span.js';
export { isEnabled, managedSpan, spanCm } from './managed-span.js';
export { traceFn } from './trace-fn.js';
export { startGroupSpan } from './start-span.js';
export type { StartSpanOptions } from './start-span.js';
export { emitSpan, epochSecondsToNanos } from './emit-span.js';
export type { EmitSpanOptions, EpochSeconds } from './emit-span.js';
export { extractContext, injectContext } from './propagation.js';
export type { Carrier } from './propagation.js';
