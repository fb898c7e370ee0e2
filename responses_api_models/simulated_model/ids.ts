/**
 * Ids in the shapes OpenAI uses (`resp_…`, `msg_…`, `call_…`), random per call.
 * @module
 */
import { randomBytes } from 'node:crypto';

/** `<prefix><24 hex>`. */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}
