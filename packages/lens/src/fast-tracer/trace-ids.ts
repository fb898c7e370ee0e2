/**
 * Trace and span ids for lean spans, cut as hex from a pool of random bytes refilled in bulk
 * (one `randomFillSync` per 2,048 span ids, instead of `Math.random` per 4 bytes).
 * @module
 */
import { randomFillSync } from 'node:crypto';

const POOL = Buffer.alloc(16 * 1024);
let offset = POOL.length;
const ZEROS: Record<number, string> = { 8: '0'.repeat(16), 16: '0'.repeat(32) };

function randomHex(bytes: number): string {
  if (offset + bytes > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const hex = POOL.toString('hex', offset, offset + bytes);
  offset += bytes;
  // all-zero ids are invalid in W3C Trace Context (a chance of 2^-64, but checking is one compare)
  return hex === ZEROS[bytes] ? randomHex(bytes) : hex;
}

/** A new 32-hex trace id. */
export function newTraceId(): string {
  return randomHex(16);
}

/** A new 16-hex span id. */
export function newSpanId(): string {
  return randomHex(8);
}
