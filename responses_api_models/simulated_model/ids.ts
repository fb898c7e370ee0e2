/**
 * Ids in the shapes OpenAI uses (`resp_…`, `msg_…`, `call_…`), random per call. Cut from a pool
 * of random bytes refilled in bulk: a `randomBytes` call per id was 7 % of this server's CPU at
 * saturation.
 * @module
 */
import { randomFillSync } from 'node:crypto';

const ID_BYTES = 12;
const POOL = Buffer.alloc(ID_BYTES * 512);
let offset = POOL.length;

/** `<prefix><24 hex>`. */
export function newId(prefix: string): string {
  if (offset + ID_BYTES > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const hex = POOL.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `${prefix}${hex}`;
}
