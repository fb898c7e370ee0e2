/**
 * The rollout id: which rollout a row, a span or a capture belongs to, the same in every process.
 * The agent's `/run` derives it from its row (`_ng_rollout_id`, else `<task>-<rollout>`, `-a<n>`
 * on retries — as the original); the collector derives the same id for its own `/run` call. How it
 * travels between processes is telemetry's business (telemetry/rollout-context.ts).
 * @module
 */
import { randomFillSync } from 'node:crypto';

/** What a rollout id may hold: a header carries it without encoding. */
export const VALID_ROLLOUT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The rollout id of a `/run` row, or `undefined` for a row that names none. */
export function declaredRolloutId(row: Record<string, unknown>): string | undefined {
  const explicit = row['_ng_rollout_id'];
  if (typeof explicit === 'string' && VALID_ROLLOUT_ID.test(explicit)) return explicit;
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
