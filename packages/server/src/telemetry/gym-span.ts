/**
 * `gymSpan()`: how a server author adds a span of their own, gated by one of gym's span groups.
 * Works the same whether telemetry is off, on, or lens is not installed: the gate is read first,
 * and a disabled gate runs the function with a no-op span and nothing else.
 * @module
 */
import type { Attributes, AttributeValue, Span } from '@opentelemetry/api';
import type { TraceScope } from '../http/instrumentation.js';
import { ATTR } from './attributes.js';
import { warnIfDetached } from './detached-scope.js';
import { GATES } from './gates.js';
import type { GymSpanGroup } from './gates.js';
import { rolloutIdIn } from './rollout-context.js';
import { contextOf, scopeOf } from './trace-scope.js';
import { activeTelemetry } from './state.js';
import type { GymTelemetry } from './state.js';

/** What server code may do with a span: annotate it with shapes and outcomes (never prompts). */
export interface GymSpan {
  setAttribute(key: string, value: AttributeValue): GymSpan;
  addEvent(name: string, attributes?: Record<string, AttributeValue>): GymSpan;
  /** False for the no-op span: skip work that only feeds the span. */
  isRecording(): boolean;
}

// gym's own no-op span, beside lens's NOOP_SPAN: lens is an optional peer, and `gymSpan` must run
// where it is not installed. It only needs the three methods a GymSpan has.
const NOOP_SPAN: GymSpan = {
  setAttribute: () => NOOP_SPAN,
  addEvent: () => NOOP_SPAN,
  isRecording: () => false,
};

/** Whether `group` is enabled in this process (false when telemetry is off or lens is absent). */
export function isGymSpanGroupEnabled(group: GymSpanGroup): boolean {
  return GATES[group].enabled;
}

/** Options of {@link gymSpan}. */
export interface GymSpanOptions {
  /** Attributes of the span (shapes and outcomes, never content). */
  attributes?: Readonly<Record<string, unknown>>;
  /**
   * Where the span goes: `route.scope` in a route handler, or the scope a `gymSpan` function got.
   * Needed after an `await`; without it the span is a child of whatever span is current.
   */
  scope?: TraceScope | undefined;
}

/**
 * Runs `fn` inside span `name` when `group` is enabled (a promise keeps it open until it settles;
 * errors are recorded and rethrown), else runs `fn` with a no-op span. The span gets the server
 * name and the rollout id. Build costly attributes inside `fn`, after `span.isRecording()`. `fn`
 * also gets the span's scope: pass it on to calls and spans it makes after an `await`.
 * @example
 * const reward = await gymSpan('verify', 'my_server.grade', async (span, scope) => {
 *   const graded = await grade(answer);
 *   const checked = await context.http.post(checkerUrl, graded, { scope });
 *   span.setAttribute('my_server.matched', graded.matched);
 *   return graded.reward;
 * }, { scope: route.scope });
 */
export function gymSpan<T>(group: GymSpanGroup, name: string, fn: (span: GymSpan, scope: TraceScope | undefined) => T, options?: GymSpanOptions): T {
  if (!GATES[group].enabled) return fn(NOOP_SPAN, options?.scope);
  const telemetry = activeTelemetry();
  if (telemetry === undefined) return fn(NOOP_SPAN, options?.scope);
  if (options?.scope === undefined && telemetry.api.trace.getSpanContext(telemetry.api.context.active()) === undefined) warnIfDetached(telemetry, 'span', name);
  // a lens span is a GymSpan: `fn` takes it as it is
  return inGymSpan(telemetry, name, fn, options?.attributes, options?.scope);
}

/**
 * Runs `fn` inside span `name` of gym's scope, carrying the server name and the rollout id of its
 * parent — `scope`, else the current context: every gym span (endpoint spans, `gym.job`,
 * `gymSpan`) is started here, on the same lean tracer as the SERVER and CLIENT spans. The keys gym
 * sets are its own: they go onto the span as they are (no copy, no redaction); `attributes` (a
 * server author's) are checked and redacted as any span's. `fn` gets the span and the span's own
 * scope. Call after the gate.
 */
export function inGymSpan<T>(telemetry: GymTelemetry, name: string, fn: (span: Span, scope: TraceScope) => T, attributes?: Readonly<Record<string, unknown>>, scope?: TraceScope): T {
  const { api, lens } = telemetry;
  const parent = contextOf(telemetry, scope);
  const own: Attributes = { [ATTR.SERVER_NAME]: telemetry.serverName };
  const rolloutId = rolloutIdIn(telemetry, parent);
  if (rolloutId !== undefined) own[ATTR.ROLLOUT_ID] = rolloutId;
  // the span is current while `fn` runs synchronously: its context is the span's scope
  return lens.runInOwnSpan(telemetry.lean, name, own, parent, (span) => {
    if (attributes !== undefined) lens.safeSetSpanAttributes(span, attributes);
    return fn(span, scopeOf(api.context.active()));
  });
}
