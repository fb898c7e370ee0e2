/**
 * How many times a CLIENT span's request was re-sent. Lenient: HTTP semconv
 * `http.request.resend_count`, a few retry-count attribute spellings, and retry events
 * (`gym.http.retry`, or any event whose name mentions "retry").
 * @module
 */
import { ATTR, attributeOf } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';

const COUNT_KEYS = [ATTR.RESEND_COUNT, 'nemo.gym.http.retry_count', 'gym.http.retry_count', 'http.retry_count', 'retry_count'];

/** The retry count of `span`: the largest of the attributes and the number of retry events. */
export function retryCount(span: SpanRecord): number {
  let n = 0;
  for (const k of COUNT_KEYS) {
    const v = attributeOf(span, k);
    const x = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : 0;
    if (Number.isFinite(x) && x > n) n = x;
  }
  let events = 0;
  // indexed: a span without events may share a frozen empty list, which `for … of` walks through a new iterator
  const list = span.events;
  for (let i = 0; i < list.length; i++) if (/retry/i.test(list[i]!.name)) events++;
  return Math.max(n, events);
}
