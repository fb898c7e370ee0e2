/**
 * `managedSpan`: the gated span around a piece of work, for hot paths.
 * @module
 */
import type { Span } from '@opentelemetry/api';
import type { LooseAttributes } from './attributes.js';
import { NOOP_SPAN } from './noop-span.js';
import { runInSpan } from './run-in-span.js';
import type { SpanOptions } from './run-in-span.js';
import { isSpanGroupEnabled } from './span-groups.js';
import type { SpanGroup } from './span-groups.js';

/** Scope of spans opened by the helpers when no tracer is given (as nemo-lens). */
const HELPERS_SCOPE = 'nemo.lens.helpers';

/** Whether `group` (a gate object or a group name) is enabled now. */
export function isEnabled(group: SpanGroup | string): boolean {
  // a typeof test is cheaper than instanceof on the hot path
  return typeof group === 'string' ? isSpanGroupEnabled(group) : group.enabled;
}

/**
 * Runs `fn` inside span `name` when `group` is enabled; otherwise runs `fn(NOOP_SPAN)` and does
 * nothing else — no tracer lookup, no attribute work. A returned promise keeps the span open until
 * it settles. Errors are recorded on the span (exception event, ERROR status) and rethrown; the
 * span always ends. Never throws anything of its own.
 * @example
 * const VERIFY = spanGroup('verify');
 * const reward = await managedSpan(VERIFY, 'gym.verify', async (span) => {
 *   const r = await verify(body);
 *   span.setAttribute('gym.verify.reward', r.reward);
 *   return r;
 * });
 */
export function managedSpan<T>(group: SpanGroup | string, name: string, fn: (span: Span) => T, attributes?: LooseAttributes, options?: SpanOptions): T {
  if (!isEnabled(group)) return fn(NOOP_SPAN);
  return runInSpan(name, fn, attributes, options, HELPERS_SCOPE);
}

/**
 * Ungated `managedSpan`, for top-level always-on spans (a whole job, startup). Under a no-op
 * provider the span is non-recording.
 */
export function spanCm<T>(name: string, fn: (span: Span) => T, attributes?: LooseAttributes, options?: SpanOptions): T {
  return runInSpan(name, fn, attributes, options, HELPERS_SCOPE);
}
