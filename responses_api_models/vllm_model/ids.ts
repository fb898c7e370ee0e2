/**
 * Ids in the shapes the original uses: `<prefix><32 hex>` (a uuid4's hex), e.g. `resp_…`, `msg_…`, `rs_…`.
 * @module
 */
import { randomUUID } from 'node:crypto';

/** `<prefix><32 hex>`. */
export function newId(prefix: string): string {
  return `${prefix}${randomUUID().replaceAll('-', '')}`;
}
