/**
 * The rollout id on every span of a rollout, in every process. The agent's `/run` derives it
 * (`_ng_rollout_id`, else `<task>-<rollout>`, `-a<n>` on retries — as the original) and puts it in
 * W3C baggage, which the client injects and every server extracts: so the resources server's spans
 * carry it too, which the original misses.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Context } from '@opentelemetry/api';
import type { GymTelemetry } from './state.js';
import { ATTR } from './attributes.js';

const VALID_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The rollout id of a `/run` row. A row without indices (a hand-made request) gets a random id. */
export function rolloutIdOf(row: Record<string, unknown>): string {
  const explicit = row['_ng_rollout_id'];
  if (typeof explicit === 'string' && VALID_ID.test(explicit)) return explicit;
  const task = row['_ng_task_index'];
  const rollout = row['_ng_rollout_index'];
  if (typeof task === 'number' && typeof rollout === 'number') {
    const attempt = row['_ng_attempt_index'];
    return typeof attempt === 'number' && attempt > 0 ? `${task}-${rollout}-a${attempt}` : `${task}-${rollout}`;
  }
  return `r-${randomBytes(6).toString('hex')}`;
}

/** The rollout id carried by `ctx`'s baggage, if any. */
export function rolloutIdIn(telemetry: GymTelemetry, ctx: Context): string | undefined {
  return telemetry.api.propagation.getBaggage(ctx)?.getEntry(ATTR.ROLLOUT_ID)?.value;
}

/** `ctx` with the rollout id in its baggage. */
export function withRolloutId(telemetry: GymTelemetry, ctx: Context, rolloutId: string): Context {
  const { propagation } = telemetry.api;
  const baggage = propagation.getBaggage(ctx) ?? propagation.createBaggage();
  return propagation.setBaggage(ctx, baggage.setEntry(ATTR.ROLLOUT_ID, { value: rolloutId }));
}
