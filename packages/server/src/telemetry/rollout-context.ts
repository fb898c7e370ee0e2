/**
 * The rollout id on every span of a rollout, in every process (the id itself: protocol/rollout-id.ts).
 * It travels between gym processes in one carrier, a W3C `baggage` entry `nemo.gym.rollout.id` (so
 * Python servers running the original read it too), parsed once per request at the ingress and kept
 * on that request's context under one key.
 * @module
 */
import type { Context } from '@opentelemetry/api';
import { VALID_ROLLOUT_ID } from '../protocol/rollout-id.js';
import { ATTR } from './attributes.js';
import type { GymTelemetry } from './state.js';

const ENTRY_PREFIX = `${ATTR.ROLLOUT_ID}=`;

/** The rollout id in a `baggage` header, if it carries a valid one. */
export function rolloutIdFromBaggage(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined) return undefined;
  const at = value.indexOf(ENTRY_PREFIX);
  if (at === -1 || (at > 0 && value[at - 1] !== ',' && value[at - 1] !== ' ')) return undefined;
  const start = at + ENTRY_PREFIX.length;
  let end = start;
  while (end < value.length && value[end] !== ',' && value[end] !== ';') end++;
  let id = value.slice(start, end).trim();
  // gym's own ids are never encoded: decode only a value that has an escape
  if (id.includes('%')) {
    try {
      id = decodeURIComponent(id);
    } catch {
      return undefined;
    }
  }
  return VALID_ROLLOUT_ID.test(id) ? id : undefined;
}

/** The `baggage` header that carries `rolloutId` (ids are validated: no encoding needed). */
export function rolloutBaggage(rolloutId: string): string {
  return ENTRY_PREFIX + rolloutId;
}

/** The rollout id on `ctx`, if any. */
export function rolloutIdIn(telemetry: GymTelemetry, ctx: Context): string | undefined {
  return ctx.getValue(telemetry.rolloutKey) as string | undefined;
}

/** `ctx` carrying `rolloutId`. */
export function withRolloutId(telemetry: GymTelemetry, ctx: Context, rolloutId: string): Context {
  return ctx.setValue(telemetry.rolloutKey, rolloutId);
}
