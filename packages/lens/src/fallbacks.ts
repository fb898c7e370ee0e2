/**
 * No-op versions of every lens primitive, with identical signatures (a test pins them).
 *
 * For code that must run where lens or the OpenTelemetry API may be missing: this module imports
 * no package at run time (types only; its no-op span is lens's own, which loads nothing), so a consumer can fall back to it — or to a copy of it — and
 * keep its call sites unchanged. Everything here is disabled, records nothing and never throws.
 * @module
 */
import type { Context } from '@opentelemetry/api';
import type * as real from './index.js';
import type * as nemoLens from './nemo-lens.js';
import { NOOP_SPAN } from './noop-span.js';

/** A span that records nothing; every method returns it (lens's own, which loads nothing). */
export { NOOP_SPAN };

const EMPTY_CONTEXT: Context = {
  getValue: () => undefined,
  setValue: () => EMPTY_CONTEXT,
  deleteValue: () => EMPTY_CONTEXT,
};

const NEVER_ENABLED = Object.freeze(new Set<string>());

export const managedSpan: typeof nemoLens.managedSpan = (_group, _name, fn) => fn(NOOP_SPAN);
export const spanCm: typeof nemoLens.spanCm = (_name, fn) => fn(NOOP_SPAN);
export const traceFn: typeof nemoLens.traceFn = () => (fn) => fn;
export const startGroupSpan: typeof nemoLens.startGroupSpan = () => NOOP_SPAN;
export const emitSpan: typeof nemoLens.emitSpan = () => undefined;
export const safeSetSpanAttributes: typeof real.safeSetSpanAttributes = () => undefined;
export const redactValue: typeof nemoLens.redactValue = (_key, value) => value;
export const isSpanGroupEnabled: typeof real.isSpanGroupEnabled = () => false;
export const spanGroup: typeof nemoLens.spanGroup = (name) => ({ name: name.trim().toLowerCase(), enabled: false });
export const enabledSpanGroups: typeof nemoLens.enabledSpanGroups = () => NEVER_ENABLED;
export const pendingSpanGroups: typeof nemoLens.pendingSpanGroups = () => NEVER_ENABLED;
export const setSpanGroupSpec: typeof real.setSpanGroupSpec = () => undefined;
export const setEnabledSpanGroups: typeof real.setEnabledSpanGroups = () => undefined;
export const injectContext: typeof nemoLens.injectContext = () => undefined;
export const extractContext: typeof nemoLens.extractContext = (_carrier, base) => base ?? EMPTY_CONTEXT;

/** A registry that accepts every registration and enables nothing. Never throws. */
export const SpanRegistry: typeof real.SpanRegistry = {
  register: () => undefined,
  unregister: () => undefined,
  clear: () => undefined,
  groups: () => NEVER_ENABLED,
  namespaces: () => [],
  presets: () => new Map([['all', NEVER_ENABLED]]),
  resolve: (spec) => ({
    enabled: NEVER_ENABLED,
    pending: new Set(
      spec
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  }),
  onChange: () => () => undefined,
};
