/**
 * `startGroupSpan`: a gated span the caller ends itself, for work that is not one callback
 * (an HTTP request seen through hooks, a CLIENT span around retries).
 * @module
 */
import { context } from '@opentelemetry/api';
import type { Span, TimeInput } from '@opentelemetry/api';
import type { LooseAttributes } from './attributes.js';
import { hrTimeOf } from './clock.js';
import { isEnabled } from './managed-span.js';
import { NOOP_SPAN } from './noop-span.js';
import type { SpanOptions } from './run-in-span.js';
import type { SpanGroup } from './span-groups.js';
import { startSpanAt } from './run-in-span.js';
import { DEFAULT_SCOPE } from './tracer.js';

/** Options of {@link startGroupSpan}. */
export interface StartSpanOptions extends SpanOptions {
  attributes?: LooseAttributes;
  startTime?: TimeInput;
}

/**
 * Starts span `name` of the given kind when `group` is enabled, else returns {@link NOOP_SPAN}.
 * The span is not made active; the caller must `end()` it (ending `NOOP_SPAN` is harmless).
 * @example
 * const span = startGroupSpan(HTTP_CLIENT, 'HTTP POST', { kind: SpanKind.CLIENT });
 * try { … } finally { span.end(); }
 */
export function startGroupSpan(group: SpanGroup | string, name: string, options: StartSpanOptions = {}): Span {
  if (!isEnabled(group)) return NOOP_SPAN;
  const startTime = options.startTime === undefined ? undefined : hrTimeOf(options.startTime);
  return startSpanAt(name, options.parent ?? context.active(), options.attributes, options, DEFAULT_SCOPE, startTime);
}
