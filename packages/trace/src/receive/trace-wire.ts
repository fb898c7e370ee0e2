/**
 * An OTLP/protobuf `ExportTraceServiceRequest` straight to console span lines, read from its wire
 * bytes without protobufjs messages or their conversion to plain objects (bytes to base64, 64-bit
 * times through `Long`), which were most of what the receiver spent on a span. The lines are the
 * ones the object path (`spanRecordsOf`) writes for the same request, field for field; the tests
 * hold the two to that.
 * @module
 */
import { normalizeId } from '../read/ids.js';
import { normalizeKind, normalizeStatusCode } from '../read/normalize.js';
import type { Attributes, AttributeValue } from '../span-record.js';
import type { ConvertedExport, Obj, ServiceRecord } from './otlp-shape.js';
import { unixTimeOf } from './otlp-shape.js';
import { FieldReader, WIRE, WireError } from './protobuf-wire.js';
import { groupTail, spanLine } from './span-records.js';

// field numbers of opentelemetry/proto (collector/trace/v1, trace/v1, common/v1, resource/v1)
const REQUEST_RESOURCE_SPANS = 1;
const RESOURCE = 1;
const SCOPE_SPANS = 2;
const LEGACY_LIBRARY_SPANS = 1000;
const SCOPE = 1; // `scope` of ScopeSpans, `instrumentation_library` of the legacy form
const SPANS = 2;
const SCOPE_NAME = 1;
const SCOPE_VERSION = 2;
const RESOURCE_ATTRIBUTES = 1;
const SPAN = { traceId: 1, spanId: 2, parentSpanId: 4, name: 5, kind: 6, start: 7, end: 8, attributes: 9, events: 11, links: 13, status: 15 } as const;
const EVENT = { time: 1, name: 2, attributes: 3 } as const;
const LINK = { traceId: 1, spanId: 2, attributes: 4 } as const;
const STATUS = { message: 2, code: 3 } as const;
const KEY_VALUE = { key: 1, value: 2 } as const;
const ANY = { string: 1, bool: 2, int: 3, double: 4, array: 5, kvlist: 6, bytes: 7 } as const;
const LIST_VALUES = 1; // `values` of ArrayValue and of KeyValueList

/** Attribute values nested deeper than this (arrays in arrays…) are refused rather than recursed into. */
const MAX_DEPTH = 64;

/**
 * Converts every span of the protobuf-encoded request in `bytes`.
 * @throws WireError when the bytes are not a well-formed message.
 */
export function spanRecordsOfWire(bytes: Buffer): ConvertedExport {
  const out: ConvertedExport = { records: [], rejected: 0 };
  const request = new FieldReader(bytes);
  while (request.next()) if (request.field === REQUEST_RESOURCE_SPANS && request.wireType === WIRE.bytes) addResourceSpans(request.message(), out);
  return out;
}

function addResourceSpans(r: FieldReader, out: ConvertedExport): void {
  // the resource may follow its spans on the wire: find both first
  let resource: FieldReader | undefined;
  const scopes: FieldReader[] = [];
  const legacy: FieldReader[] = [];
  while (r.next()) {
    if (r.wireType !== WIRE.bytes) continue;
    if (r.field === RESOURCE) resource = r.message();
    else if (r.field === SCOPE_SPANS) scopes.push(r.message());
    else if (r.field === LEGACY_LIBRARY_SPANS) legacy.push(r.message());
  }
  const attributes = resource === undefined ? {} : fieldAttributes(resource, RESOURCE_ATTRIBUTES);
  const name = attributes['service.name'];
  const service = typeof name === 'string' && name.length > 0 ? name : 'unknown_service';
  // the current scope list when there is one, else the pre-1.0 one (the OTLP spec's rule)
  for (const s of scopes.length > 0 ? scopes : legacy) addScopeSpans(s, service, attributes, out);
}

function addScopeSpans(s: FieldReader, service: string, attributes: Attributes, out: ConvertedExport): void {
  let scope = { name: '', version: null as string | null };
  const spans: FieldReader[] = [];
  while (s.next()) {
    if (s.wireType !== WIRE.bytes) continue;
    if (s.field === SCOPE) scope = scopeOf(s.message());
    else if (s.field === SPANS) spans.push(s.message());
  }
  if (spans.length === 0) return;
  const tail = groupTail({ resource: { attributes }, scope });
  for (const span of spans) {
    const line = spanLineOf(span, tail);
    if (line === null) out.rejected++;
    else out.records.push({ service, line } satisfies ServiceRecord);
  }
}

function scopeOf(m: FieldReader): { name: string; version: string | null } {
  let name = '';
  let version = '';
  while (m.next()) {
    if (m.wireType !== WIRE.bytes) continue;
    if (m.field === SCOPE_NAME) name = m.string();
    else if (m.field === SCOPE_VERSION) version = m.string();
  }
  return { name, version: version === '' ? null : version };
}

/** The span's line, or null when its trace or span id is unusable. */
function spanLineOf(m: FieldReader, tail: string): string | null {
  let traceId: string | null = null;
  let spanId: string | null = null;
  let parentId: string | null = null;
  let name = '';
  let kind: number | undefined;
  let start: string | undefined;
  let end: string | undefined;
  let status: FieldReader | undefined;
  const attributes: Attributes = {};
  const events: Obj[] = [];
  const links: Obj[] = [];
  while (m.next()) {
    const f = m.field;
    const w = m.wireType;
    if (w === WIRE.bytes) {
      if (f === SPAN.traceId) traceId = idOf(m, 16);
      else if (f === SPAN.spanId) spanId = idOf(m, 8);
      else if (f === SPAN.parentSpanId) parentId = idOf(m, 8);
      else if (f === SPAN.name) name = m.string();
      else if (f === SPAN.attributes) addKeyValue(attributes, m.message(), 0);
      else if (f === SPAN.events) events.push(eventOf(m.message()));
      else if (f === SPAN.links) links.push(linkOf(m.message()));
      else if (f === SPAN.status) status = m.message();
    } else if (w === WIRE.fixed64) {
      if (f === SPAN.start) start = m.fixed64Decimal();
      else if (f === SPAN.end) end = m.fixed64Decimal();
    } else if (w === WIRE.varint && f === SPAN.kind) kind = m.int32();
  }
  if (traceId === null || spanId === null) return null;
  let code: number | undefined;
  let message: string | undefined;
  while (status?.next() === true) {
    if (status.field === STATUS.code && status.wireType === WIRE.varint) code = status.int32();
    else if (status.field === STATUS.message && status.wireType === WIRE.bytes) message = status.string();
  }
  return spanLine(
    {
      traceId,
      spanId,
      parentId,
      name,
      kind: normalizeKind(kind),
      start: unixTimeOf(start),
      end: unixTimeOf(end),
      statusCode: normalizeStatusCode(code),
      statusMessage: message,
      attributes,
      events,
      links,
    },
    tail,
  );
}

/**
 * An id field as lowercase hex; null when empty or all zeros. An id of the wrong length takes the
 * path its base64 text takes through `normalizeId`, as in the object path.
 */
function idOf(m: FieldReader, width: 8 | 16): string | null {
  const { bytes, valueStart: from, valueEnd: to } = m;
  if (to - from !== width) return normalizeId(bytes.toString('base64', from, to), width);
  for (let i = from; i < to; i++) if (bytes[i] !== 0) return bytes.toString('hex', from, to);
  return null;
}

function eventOf(m: FieldReader): Obj {
  let name = '';
  let time: string | undefined;
  const attributes: Attributes = {};
  while (m.next()) {
    if (m.field === EVENT.name && m.wireType === WIRE.bytes) name = m.string();
    else if (m.field === EVENT.time && m.wireType === WIRE.fixed64) time = m.fixed64Decimal();
    else if (m.field === EVENT.attributes && m.wireType === WIRE.bytes) addKeyValue(attributes, m.message(), 0);
  }
  return { name, time: unixTimeOf(time).iso, attributes };
}

function linkOf(m: FieldReader): Obj {
  let traceId: string | null = null;
  let spanId: string | null = null;
  const attributes: Attributes = {};
  while (m.next()) {
    if (m.wireType !== WIRE.bytes) continue;
    if (m.field === LINK.traceId) traceId = idOf(m, 16);
    else if (m.field === LINK.spanId) spanId = idOf(m, 8);
    else if (m.field === LINK.attributes) addKeyValue(attributes, m.message(), 0);
  }
  return { trace_id: traceId ?? '', span_id: spanId ?? '', attributes };
}

/** The attributes of a message's repeated `KeyValue` field `field`. */
function fieldAttributes(m: FieldReader, field: number, depth = 0): Attributes {
  const out: Attributes = {};
  while (m.next()) if (m.field === field && m.wireType === WIRE.bytes) addKeyValue(out, m.message(), depth);
  return out;
}

/** Adds one `KeyValue` to `out`; one without a key is skipped (as `decodeKeyValues` skips it). */
function addKeyValue(out: Attributes, kv: FieldReader, depth: number): void {
  let key: string | undefined;
  let value: FieldReader | undefined;
  while (kv.next()) {
    if (kv.wireType !== WIRE.bytes) continue;
    if (kv.field === KEY_VALUE.key) key = kv.string();
    else if (kv.field === KEY_VALUE.value) value = kv.message();
  }
  if (key !== undefined) out[key] = value === undefined ? null : anyValueOf(value, depth);
}

/**
 * An `AnyValue`. A message that sets more than one of its oneof fields (only a broken or hostile
 * sender does) is read with `decodeAnyValue`'s precedence: string, bool, int, double, array,
 * key-value list, bytes.
 */
function anyValueOf(m: FieldReader, depth: number): AttributeValue {
  if (depth >= MAX_DEPTH) throw new WireError(`attribute values nested more than ${MAX_DEPTH} deep`);
  let string: string | undefined;
  let bool: boolean | undefined;
  let int: bigint | undefined;
  let double: number | undefined;
  let array: FieldReader | undefined;
  let kvlist: FieldReader | undefined;
  let bytes: string | undefined;
  while (m.next()) {
    const f = m.field;
    const w = m.wireType;
    if (w === WIRE.bytes) {
      if (f === ANY.string) string = m.string();
      else if (f === ANY.array) array = m.message();
      else if (f === ANY.kvlist) kvlist = m.message();
      else if (f === ANY.bytes) bytes = m.bytes.toString('base64', m.valueStart, m.valueEnd);
    } else if (w === WIRE.varint) {
      if (f === ANY.bool) bool = m.bool();
      else if (f === ANY.int) int = m.int64();
    } else if (w === WIRE.fixed64 && f === ANY.double) double = m.double();
  }
  if (string !== undefined) return string;
  if (bool !== undefined) return bool;
  if (int !== undefined) {
    const n = Number(int);
    // beyond 2^53 a decimal string, as `decodeAnyValue` keeps it
    return Number.isSafeInteger(n) ? n : int.toString();
  }
  if (double !== undefined) return double;
  if (array !== undefined) {
    const values: AttributeValue[] = [];
    while (array.next()) if (array.field === LIST_VALUES && array.wireType === WIRE.bytes) values.push(anyValueOf(array.message(), depth + 1));
    return values;
  }
  if (kvlist !== undefined) return fieldAttributes(kvlist, LIST_VALUES, depth + 1);
  if (bytes !== undefined) return bytes;
  return null;
}
