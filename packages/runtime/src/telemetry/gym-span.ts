/**
 * `gymSpan()`: how a server author adds a span of their own, gated by one of gym's span groups.
 * Works the same whether telemetry is off, on, or lens is not installed: the gate is read first,
 * and a disabled gate runs the function with a no-op span and nothing else.
 * @module
 */
import type { AttributeValue, Span } from '@opentelemetry/api';
import { ATTR, GYM_SCOPE } from './attributes.js';
import { GATES } from './gates.js';
import type { GymSpanGroup } from './gates.js';
import { rolloutIdIn } from './rollout-context.js';
import { activeTelemetry } from './state.js';
import type { GymTelemetry } from './state.js';

const SCOPE = { scope: GYM_SCOPE };

/** What server code may do with a span: annotate it with shapes and outcomes (never prompts). */
export interface GymSpan {
  setAttribute(key: string, value: AttributeValue): GymSpan;
  addEvent(name: string, attributes?: Record<string, AttributeValue>): GymSpan;
  /** False for the no-op span: skip work that only feeds the span. */
  isRecording(): boolean;
}

const NOOP_SPAN: GymSpan = {
  setAttribute: () => NOOP_SPAN,
  addEvent: () => NOOP_SPAN,
  isRecording: () => false,
};

/** Whether `group` is enabled in this process (false when telemetry is off or lens is absent). */
export function isGymSpanGroupEnabled(group: GymSpanGroup): boolean {
  return GATES[group].enabled;
}

/**
 * Runs `fn` inside span `name` when `group` is enabled (a promise keeps it open until it settles;
 * errors are recorded and rethrown), else runs `fn` with a no-op span. The span gets the server
 * name and the rollout id. Build costly attributes inside `fn`, after `span.isRecording()`.
 * @example
 * const reward = await gymSpan('verify', 'my_server.grade', async (span) => {
 *   const graded = await grade(answer);
 *   span.setAttribute('my_server.matched', graded.matched);
 *   return graded.reward;
 * });
 */
export function gymSpan<T>(group: GymSpanGroup, name: string, fn: (span: GymSpan) => T, attributes?: Readonly<Record<string, unknown>>): T {
  if (!GATES[group].enabled) return fn(NOOP_SPAN);
  const telemetry = activeTelemetry();
  if (telemetry === undefined) return fn(NOOP_SPAN);
  return inGymSpan(telemetry, name, (span) => fn(span as unknown as GymSpan), attributes);
}

/**
 * Runs `fn` inside span `name` of gym's scope, carrying the server name and the request's rollout
 * id: every gym span (endpoint spans, `gym.job`, `gymSpan`) is started here. Call after the gate.
 */
export function inGymSpan<T>(telemetry: GymTelemetry, name: string, fn: (span: Span) => T, attributes?: Readonly<Record<string, unknown>>): T {
  const all: Record<string, unknown> = { ...attributes, [ATTR.SERVER_NAME]: telemetry.serverName };
  const rolloutId = rolloutIdIn(telemetry, telemetry.api.context.active());
  if (rolloutId !== undefined) all[ATTR.ROLLOUT_ID] = rolloutId;
  return telemetry.lens.spanCm(name, fn, all, SCOPE);
}
