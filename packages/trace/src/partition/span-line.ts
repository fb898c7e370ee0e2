/**
 * The two ways a span travels into a partition file: the raw text of one of our console span
 * lines (its keys found by substring search, without parsing it), or any other span re-written
 * as a console span record.
 * @module
 */
import { ATTR, SPAN } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';

/** What routing needs of a span. */
export interface SpanKeys {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  /** `nemo.gym.rollout.id` of a `gym.rollout` span (the rollout index lists where each rollout is). */
  rolloutId: string | null;
}

const TYPE_SPAN = '{"type":"span"';
const TRACE_ID = '"trace_id":"';
const SPAN_ID = '"span_id":"';
const PARENT_ID = '"parent_span_id":';
const ROLLOUT_ID = `"${ATTR.ROLLOUT_ID}":"`;
const ROLLOUT_NAME = `"name":"${SPAN.ROLLOUT}"`;

/**
 * The offset of what looks like one of our console span records in `line` (it may follow a prefix
 * such as `[agent] `), or -1.
 */
export function consoleSpanStart(line: string): number {
  return line.startsWith(TYPE_SPAN) ? 0 : line.indexOf(TYPE_SPAN);
}

/**
 * Trace id, span id, parent span id and (for `gym.rollout`) rollout id of a compact console span
 * record, read by substring search; null when a value is not where the writer puts it (the record
 * then takes the parsing path, which validates it).
 */
export function keysOfConsoleSpan(text: string): SpanKeys | null {
  if (text.charCodeAt(text.length - 1) !== 125 /* } */) return null;
  const traceId = fixedHexAfter(text, TRACE_ID, 32);
  const spanId = fixedHexAfter(text, SPAN_ID, 16);
  if (traceId === null || spanId === null) return null;
  const p = text.indexOf(PARENT_ID);
  let parentSpanId: string | null = null;
  if (p >= 0 && !text.startsWith('null', p + PARENT_ID.length)) {
    parentSpanId = fixedHexAfter(text, PARENT_ID + '"', 16);
    if (parentSpanId === null) return null;
  }
  if (!text.includes(ROLLOUT_NAME)) return { traceId, spanId, parentSpanId, rolloutId: null };
  const r = text.indexOf(ROLLOUT_ID);
  if (r < 0) return { traceId, spanId, parentSpanId, rolloutId: null };
  const from = r + ROLLOUT_ID.length;
  const to = text.indexOf('"', from);
  const rolloutId = to < 0 ? '' : text.slice(from, to);
  // an escaped quote or backslash inside the id: leave it to JSON.parse
  if (to < 0 || rolloutId.includes('\\')) return null;
  return { traceId, spanId, parentSpanId, rolloutId };
}

function fixedHexAfter(text: string, key: string, width: number): string | null {
  const at = text.indexOf(key);
  if (at < 0) return null;
  const from = at + key.length;
  if (text.charCodeAt(from + width) !== 34 /* " */) return null;
  const id = text.slice(from, from + width);
  return /^[0-9a-f]+$/.test(id) ? id : null;
}

/** A span (from any input format) as one of our console span records. */
export function toConsoleRecord(span: SpanRecord): Record<string, unknown> {
  return {
    type: 'span',
    trace_id: span.traceId,
    span_id: span.spanId,
    parent_span_id: span.parentSpanId,
    name: span.name,
    kind: span.kind,
    start_time_unix_nano: span.startNs.toString(),
    end_time_unix_nano: span.ended ? span.endNs.toString() : null,
    status: span.status,
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, time_unix_nano: e.timeNs.toString(), attributes: e.attributes })),
    resource: { attributes: span.resource.attributes },
    scope: span.scope,
  };
}
