/**
 * The two ways a span travels into a partition file: the raw text of one of our console span
 * lines (its keys found at fixed offsets or by byte search, without parsing it), or any other span re-written
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

const TYPE_SPAN = Buffer.from('{"type":"span"');
const TRACE_ID = Buffer.from('"trace_id":"');
const SPAN_ID = Buffer.from('"span_id":"');
const PARENT_ID = Buffer.from('"parent_span_id":');
const PARENT_ID_QUOTE = Buffer.from('"parent_span_id":"');
const NULL = Buffer.from('null');
const ROLLOUT_ID = Buffer.from(`"${ATTR.ROLLOUT_ID}":"`);
const ROLLOUT_NAME = Buffer.from(`"name":"${SPAN.ROLLOUT}"`);
// what a one-line JSON object must name to be a record the index keeps (as `mayHoldSpan` in the reader)
const RECORD_KEYS = ['"span_id"', '"resourceSpans"', '"metric"', '"type":"resource"'].map((k) => Buffer.from(k));

/**
 * The offset of what looks like one of our console span records in the bytes of `line` (it may
 * follow a prefix such as `[agent] `), or -1.
 */
export function consoleSpanStartIn(line: Buffer): number {
  return line.indexOf(TYPE_SPAN);
}

/**
 * Trace id, span id, parent span id and (for `gym.rollout`) rollout id of a compact console span
 * record (`line` from `at`), read by byte search; null when a value is not where the writer puts
 * it (the record then takes the parsing path, which validates it).
 */
export function keysOfConsoleSpanIn(line: Buffer, at: number): SpanKeys | null {
  if (line[line.length - 1] !== 125 /* } */) return null;
  const traceId = fixedHexAfter(line, at, TRACE_ID, 32);
  const spanId = fixedHexAfter(line, at, SPAN_ID, 16);
  if (traceId === null || spanId === null) return null;
  const p = line.indexOf(PARENT_ID, at);
  let parentSpanId: string | null = null;
  if (p >= 0 && !bytesAt(line, p + PARENT_ID.length, NULL)) {
    parentSpanId = fixedHexAfter(line, at, PARENT_ID_QUOTE, 16);
    if (parentSpanId === null) return null;
  }
  if (line.indexOf(ROLLOUT_NAME, at) < 0) return { traceId, spanId, parentSpanId, rolloutId: null };
  const r = line.indexOf(ROLLOUT_ID, at);
  if (r < 0) return { traceId, spanId, parentSpanId, rolloutId: null };
  const from = r + ROLLOUT_ID.length;
  const to = line.indexOf(34 /* " */, from);
  // an escaped quote or backslash inside the id: leave it to JSON.parse
  if (to < 0 || line.subarray(from, to).includes(92 /* \ */)) return null;
  return { traceId, spanId, parentSpanId, rolloutId: line.toString('utf8', from, to) };
}

const HEAD = Buffer.from('{"type":"span","trace_id":"');
const AFTER_TRACE = Buffer.from('","span_id":"');
const AFTER_SPAN = Buffer.from('","parent_span_id":');
const NAME_ROLLOUT = Buffer.from(`,"name":"${SPAN.ROLLOUT}"`);
const NAME = Buffer.from(',"name":"');

/**
 * Where the keys of a console span line are in its buffer, for a line laid out as the console
 * exporter writes it (see {@link fixedSpanLayout}). Offsets are into the buffer the line is in.
 */
export interface FixedSpanLayout {
  /** The 32 hex digits of the trace id. */
  traceAt: number;
  /** The 16 hex digits of the span id. */
  spanAt: number;
  /** The 16 hex digits of the parent span id; -1 for a root (`null`). */
  parentAt: number;
  /** The rollout id of a `gym.rollout` span, from `rolloutFrom` to `rolloutTo` (both -1 when there is none). */
  rolloutFrom: number;
  rolloutTo: number;
}

// one object refilled by every call: the build asks this of every span line, twice
const layout: FixedSpanLayout = { traceAt: 0, spanAt: 0, parentAt: -1, rolloutFrom: -1, rolloutTo: -1 };

/**
 * The offsets of the keys of a line of `buf` (from `start` to `end`) laid out as the console
 * exporter writes it — type, trace id, span id, parent id, name, in that order — checked at fixed
 * offsets without a search (a call into the Buffer search per key cost more than the rest of the
 * build), and without making strings of the ids (the build reads them as numbers or not at all).
 * Null when the line is not laid out so: the caller then searches. The object returned is reused
 * by the next call.
 */
export function fixedSpanLayout(buf: Buffer, start: number, end: number): Readonly<FixedSpanLayout> | null {
  if (buf[end - 1] !== 125 /* } */ || !bytesAt(buf, start, HEAD)) return null;
  let i = start + HEAD.length;
  const traceAt = i;
  if (!isHexAt(buf, i, 32) || !bytesAt(buf, (i += 32), AFTER_TRACE)) return null;
  i += AFTER_TRACE.length;
  const spanAt = i;
  if (!isHexAt(buf, i, 16) || !bytesAt(buf, (i += 16), AFTER_SPAN)) return null;
  i += AFTER_SPAN.length;
  let parentAt = -1;
  if (bytesAt(buf, i, NULL)) i += NULL.length;
  else {
    if (buf[i] !== 34 || buf[i + 17] !== 34 || !isHexAt(buf, i + 1, 16)) return null;
    parentAt = i + 1;
    i += 18;
  }
  if (!bytesAt(buf, i, NAME)) return null;
  let rolloutFrom = -1;
  let rolloutTo = -1;
  // the rollout id is wanted of gym.rollout spans only: it is looked for in them alone
  if (bytesAt(buf, i, NAME_ROLLOUT)) {
    const line = buf.subarray(start, end);
    const r = line.indexOf(ROLLOUT_ID, i - start);
    if (r >= 0) {
      const from = r + ROLLOUT_ID.length;
      const to = line.indexOf(34 /* " */, from);
      // an escaped quote or backslash inside the id: leave it to JSON.parse
      if (to < 0 || line.subarray(from, to).includes(92 /* \ */)) return null;
      rolloutFrom = start + from;
      rolloutTo = start + to;
    }
  }
  layout.traceAt = traceAt;
  layout.spanAt = spanAt;
  layout.parentAt = parentAt;
  layout.rolloutFrom = rolloutFrom;
  layout.rolloutTo = rolloutTo;
  return layout;
}

/**
 * True when the record scanner would skip `line` without a look at its content (so it need not
 * be decoded): blank, no `{` at all, or a one-line JSON object naming none of the record keys
 * (pino's log lines). Only for a line that does not continue a multi-line record.
 */
export function cannotBeRecord(line: Buffer): boolean {
  if (!line.includes(123 /* { */)) return true;
  if (line[0] !== 123 || line[1] !== 34 /* " */ || line[line.length - 1] !== 125) return false;
  for (const key of RECORD_KEYS) if (line.includes(key)) return false;
  return true;
}

// compared in JS: a call into Buffer#compare costs more than these few bytes
function bytesAt(buf: Buffer, at: number, bytes: Buffer): boolean {
  if (at + bytes.length > buf.length) return false;
  for (let k = 0; k < bytes.length; k++) if (buf[at + k] !== bytes[k]) return false;
  return true;
}

// lower-case hex digits only, as the exporter writes ids
function isHexAt(buf: Buffer, from: number, width: number): boolean {
  if (from + width > buf.length) return false;
  for (let i = from; i < from + width; i++) {
    const c = buf[i]!;
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

function hexAt(buf: Buffer, from: number, width: number): string | null {
  return isHexAt(buf, from, width) ? buf.toString('latin1', from, from + width) : null;
}

function fixedHexAfter(line: Buffer, at: number, key: Buffer, width: number): string | null {
  const k = line.indexOf(key, at);
  if (k < 0) return null;
  const from = k + key.length;
  return line[from + width] === 34 /* " */ ? hexAt(line, from, width) : null;
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
