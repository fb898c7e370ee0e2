/**
 * The rollout id on every span of a rollout, in every process. The agent's `/run` derives it
 * (`_ng_rollout_id`, else `<task>-<rollout>`, `-a<n>` on retries — as the original); the collector
 * derives the same id for its own `/run` call. It travels between gym processes in one carrier, a
 * W3C `baggage` entry `nemo.gym.rollout.id` (so Python servers running the original read it too),
 * parsed once per request at the ingress and kept on that request's context under one key.
 * @module
 */
import { randomFillSync } from 'node:crypto';
import type { Context } from '@opentelemetry/api';
import { ATTR } from './attributes.js';
import type { GymTelemetry } from './state.js';

const VALID_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const ENTRY_PREFIX = `${ATTR.ROLLOUT_ID}=`;

/** The rollout id of a `/run` row, or `undefined` for a row that names none. */
export function declaredRolloutId(row: Record<string, unknown>): string | undefined {
  const explicit = row['_ng_rollout_id'];
  if (typeof explicit === 'string' && VALID_ID.test(explicit)) return explicit;
  const task = row['_ng_task_index'];
  const rollout = row['_ng_rollout_index'];
  if (typeof task !== 'number' || typeof rollout !== 'number') return undefined;
  const attempt = row['_ng_attempt_index'];
  return typeof attempt === 'number' && attempt > 0 ? `${task}-${rollout}-a${attempt}` : `${task}-${rollout}`;
}

// random ids are cut from a pool refilled in bulk: one crypto call per 1,024 ids, not one per id
const ID_BYTES = 6;
const idPool = Buffer.alloc(ID_BYTES * 1024);
let idOffset = idPool.length;

/** The rollout id of a `/run` row. A row without indices (a hand-made request) gets a random id. */
export function rolloutIdOfRow(row: Record<string, unknown>): string {
  const declared = declaredRolloutId(row);
  if (declared !== undefined) return declared;
  if (idOffset === idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  idOffset += ID_BYTES;
  return `r-${idPool.toString('hex', idOffset - ID_BYTES, idOffset)}`;
}

/** The rollout id in a `baggage` header, if it carries a valid one. */
export function rolloutIdFromBaggage(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined) return undefined;
  const at = value.indexOf(ENTRY_PREFIX);
  if (at === -1 || (at > 0 && value[at - 1] !== ',' && value[at - 1] !== ' ')) return undefined;
  const start = at + ENTRY_PREFIX.length;
  let end = start;
  while (end < value.length && value[end] !== ',' && value[end] !== ';') end++;
  let id: string;
  try {
    id = decodeURIComponent(value.slice(start, end).trim());
  } catch {
    return undefined;
  }
  return VALID_ID.test(id) ? id : undefined;
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
