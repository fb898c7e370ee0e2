/**
 * A call that never got an answer from a server: its CLIENT span failed without an HTTP status
 * (refused, reset or timed out before a response). No SERVER span is expected under it, and its
 * time is failed attempts, not a missing log.
 * @module
 */
import { ATTR } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';

/** True when the CLIENT span `span` ended in an error without an HTTP status. */
export function failedWithoutAnswer(span: SpanRecord): boolean {
  return span.status.code === 'ERROR' && span.attributes[ATTR.HTTP_STATUS] === undefined;
}
