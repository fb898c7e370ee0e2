/**
 * The compact form of a partition's spans (`<i>.spans` beside `<i>.part`): every field of each
 * span as the reader normalised it, stored as columns. Commands that read a whole run read this
 * instead of the partition's console lines: a few typed-array views of one buffer and one small
 * JSON section per partition, with no per-span parse and no normalising. It is written the first
 * time a partition is read in full, and it is an exact copy: the spans decoded from it are equal,
 * field by field, to those read from the lines.
 *
 * Layout (numbers in the writer's byte order, which the header records):
 *
 * | bytes | what |
 * | --- | --- |
 * | 8 | magic `GYMSPANS` |
 * | 4 × u32 | byte-order mark `0x01020304`, {@link COMPACT_VERSION}, span count `n`, attribute pairs `p` |
 * | 4 × u32 | meta section bytes, reserved (0) ×3 |
 * | n × i64 each | start, end (unix ns; the end equals the start when the span never ended; both 0 when one does not fit, see the extras) |
 * | n × f64 | end − start in ns, as a double (−1: never ended) |
 * | n × i32 | parent: index of a span of this partition, −1 none, −2 − k the k-th external parent id |
 * | n × i32 each | trace, name, resource, scope (−1 none), input file, line |
 * | (n + 1) × u32 | first attribute pair of each span (the last entry ends the last span's) |
 * | 2p × u32 | attribute pairs: key index, value index |
 * | n × u8 each | kind, status code |
 * | 8n | span ids, as bytes |
 * | meta bytes | JSON: read counters, tables (traces, names, resources, scopes, external parents, keys, values) and per-span extras (status messages, events) |
 *
 * Times are read as they are (a bigint each, no arithmetic); attribute keys and values repeated
 * across spans (rollout ids, routes, urls) are stored, and decoded, once per partition.
 * @module
 */
import type { Attributes, AttributeValue, SpanEvent, SpanKindName, SpanRecord, SpanResource, StatusCodeName } from '../span-record.js';
import { serviceOf } from '../read/normalize.js';
import { hexSlice } from '../read/buffer-slices.js';
import type { ResourceCache } from '../read/resource-cache.js';

/** Version of the compact layout: a file of another version is not read (the lines are, and it is rewritten). */
export const COMPACT_VERSION = 3;

const MAGIC = Buffer.from('GYMSPANS', 'latin1');
const BYTE_ORDER_MARK = 0x01020304;
const HEADER_BYTES = 8 + 8 * 4;
const KINDS: readonly SpanKindName[] = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const KIND_INDEX: Record<SpanKindName, number> = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 };
const CODES: readonly StatusCodeName[] = ['UNSET', 'OK', 'ERROR'];
const CODE_INDEX: Record<StatusCodeName, number> = { UNSET: 0, OK: 1, ERROR: 2 };
// a status without a message, and no events, are the same for every span: shared (nothing
// writes to them; frozen, so that nothing can)
const BARE_STATUS = CODES.map((code) => Object.freeze({ code }));
const NO_EVENTS = Object.freeze([]) as unknown as SpanEvent[];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** What a span has that the columns do not hold: rare, kept in the meta section by span index. */
interface SpanExtras {
  /** Status message. */
  m?: string;
  /** Events: name, unix ns (decimal), attributes. */
  e?: Array<[string, string, Attributes]>;
  /** Start and end, unix ns (decimal), when one does not fit an int64 (garbage input). */
  s?: string;
  t?: string;
}

/** The meta section's JSON document. */
interface CompactMeta {
  /** Spans read per input format: console, python, otlp. */
  formats: [number, number, number];
  /** Records of the partition that could not be used, in order: file index, line, reason. */
  malformed: Array<[number, number, string]>;
  traces: string[];
  names: string[];
  resources: Attributes[];
  scopes: Array<{ name: string; version?: string }>;
  /** Parent ids that are not spans of this partition. */
  externals: string[];
  keys: string[];
  values: AttributeValue[];
  extras: Array<[number, SpanExtras]>;
}

/** A malformed record of a partition, with its file as an index of the inputs. */
export interface MalformedAt {
  file: number;
  line: number;
  reason: string;
}

/** Collects the spans of one partition as they are read, and writes them out in compact form. */
export class CompactSpansWriter {
  readonly #formats: [number, number, number] = [0, 0, 0];
  readonly #malformed: Array<[number, number, string]> = [];
  readonly #traces = new Table<string>();
  readonly #names = new Table<string>();
  readonly #resources = new Table<SpanResource>();
  readonly #scopes = new Table<string>();
  readonly #scopeList: Array<{ name: string; version?: string }> = [];
  readonly #externals = new Table<string>();
  readonly #keys = new Table<string>();
  readonly #scalars = new Map<string, number>();
  readonly #valueList: AttributeValue[] = [];
  readonly #extras: Array<[number, SpanExtras]> = [];
  readonly #spans: SpanRecord[] = [];
  readonly #where: number[] = [];
  readonly #attributePairs: number[] = [];
  readonly #attributeStarts: number[] = [0];
  readonly #trace: number[] = [];
  readonly #name: number[] = [];
  readonly #resource: number[] = [];
  readonly #scope: number[] = [];
  // the first span of each id (parents are resolved in `bytes`)
  readonly #firstOf = new Map<string, number>();

  /** Adds a span read from line `line` of input `file`, in the input `format` (0 console, 1 python, 2 otlp). */
  add(s: SpanRecord, file: number, line: number, format: 0 | 1 | 2): void {
    this.#formats[format]++;
    if (!this.#firstOf.has(s.spanId)) this.#firstOf.set(s.spanId, this.#spans.length);
    this.#spans.push(s);
    this.#where.push(file, line);
    this.#trace.push(this.#traces.indexOf(s.traceId));
    this.#name.push(this.#names.indexOf(s.name));
    this.#resource.push(this.#resources.indexOf(s.resource));
    this.#scope.push(s.scope === null ? -1 : this.#scopeIndex(s.scope));
    for (const key in s.attributes) this.#attributePairs.push(this.#keys.indexOf(key), this.#valueIndex(s.attributes[key]!));
    this.#attributeStarts.push(this.#attributePairs.length / 2);
  }

  /** Adds a record that could not be used. */
  malformed(file: number, line: number, reason: string): void {
    this.#malformed.push([file, line, reason]);
  }

  /** The compact file's bytes. */
  bytes(): Buffer {
    const spans = this.#spans;
    const n = spans.length;
    const pairs = this.#attributePairs.length / 2;
    const layout = layoutOf(n, pairs);
    const out = Buffer.alloc(layout.meta);
    const c = columnsOf(out, layout);
    for (let i = 0; i < n; i++) {
      const s = spans[i]!;
      const wide = s.startNs < INT64_MIN || s.startNs > INT64_MAX || s.endNs < INT64_MIN || s.endNs > INT64_MAX;
      c.start[i] = wide ? 0n : s.startNs;
      c.end[i] = wide ? 0n : s.endNs;
      c.duration[i] = s.ended ? Number(s.endNs - s.startNs) : -1;
      const pid = s.parentSpanId;
      c.parent[i] = pid === null ? -1 : (this.#firstOf.get(pid) ?? -2 - this.#externals.indexOf(pid));
      c.trace[i] = this.#trace[i]!;
      c.name[i] = this.#name[i]!;
      c.resource[i] = this.#resource[i]!;
      c.scope[i] = this.#scope[i]!;
      c.file[i] = this.#where[2 * i]!;
      c.line[i] = this.#where[2 * i + 1]!;
      c.kind[i] = KIND_INDEX[s.kind];
      c.code[i] = CODE_INDEX[s.status.code];
      out.write(s.spanId, layout.ids + 8 * i, 8, 'hex');
      if (s.status.message !== undefined || s.events.length > 0 || wide) {
        const extras: SpanExtras = {};
        if (wide) [extras.s, extras.t] = [s.startNs.toString(), s.endNs.toString()];
        if (s.status.message !== undefined) extras.m = s.status.message;
        if (s.events.length > 0) extras.e = s.events.map((e) => [e.name, e.timeNs.toString(), e.attributes]);
        this.#extras.push([i, extras]);
      }
    }
    c.attributeStarts.set(this.#attributeStarts);
    c.attributePairs.set(this.#attributePairs);
    const meta: CompactMeta = {
      formats: this.#formats,
      malformed: this.#malformed,
      traces: this.#traces.values,
      names: this.#names.values,
      resources: this.#resources.values.map((r) => r.attributes),
      scopes: this.#scopeList,
      externals: this.#externals.values,
      keys: this.#keys.values,
      values: this.#valueList,
      extras: this.#extras,
    };
    const metaBytes = Buffer.from(JSON.stringify(meta), 'utf8');
    MAGIC.copy(out, 0);
    const header = new Uint32Array(out.buffer, out.byteOffset + 8, 8);
    header.set([BYTE_ORDER_MARK, COMPACT_VERSION, n, pairs, metaBytes.length, 0, 0, 0]);
    return Buffer.concat([out, metaBytes]);
  }

  #scopeIndex(scope: { name: string; version?: string }): number {
    const key = scope.version === undefined ? scope.name : `${scope.name}\u0000${scope.version}`;
    const before = this.#scopes.values.length;
    const i = this.#scopes.indexOf(key);
    if (i === before) this.#scopeList.push(scope);
    return i;
  }

  // Scalars are stored once per partition; objects and arrays once per use, so that no two spans
  // share a value that could be changed through one of them.
  #valueIndex(value: AttributeValue): number {
    if (value !== null && typeof value === 'object') return this.#valueList.push(value) - 1;
    const key = typeof value === 'string' ? `s${value}` : `${typeof value}:${String(value)}`;
    let i = this.#scalars.get(key);
    if (i === undefined) this.#scalars.set(key, (i = this.#valueList.push(value) - 1));
    return i;
  }
}

/**
 * A compact file opened for reading: its counters, the columns that say how its spans hang
 * together ({@link parent}, {@link trace}), and each span decoded on demand. Spans are decoded in
 * any order and any subset, so a partition can be handed on in slices (`partition-slices.ts`).
 */
export class CompactSpans {
  /** Number of spans. */
  readonly spans: number;
  /** Spans per input format. */
  readonly formats: { console: number; python: number; otlp: number };
  readonly malformed: MalformedAt[];
  /** Each span's parent: the index of a span of this file, −1 none, −2 − k the k-th {@link externalId}. */
  readonly parent: Int32Array;
  /** Each span's trace, as an index of the file's trace table (equal indices, equal trace ids). */
  readonly trace: Int32Array;
  readonly #buf: Buffer;
  readonly #layout: ReturnType<typeof layoutOf>;
  readonly #c: ReturnType<typeof columnsOf>;
  readonly #meta: CompactMeta;
  readonly #paths: (file: number) => string;
  readonly #resources: SpanResource[];
  readonly #services: string[];
  readonly #scopes: Array<{ name: string; version?: string }>;
  readonly #extras: ReadonlyMap<number, SpanExtras>;
  #lastFile = -1;
  #path = '';

  private constructor(buf: Buffer, layout: ReturnType<typeof layoutOf>, meta: CompactMeta, paths: (file: number) => string, resources: ResourceCache) {
    this.#buf = buf;
    this.#layout = layout;
    this.#c = columnsOf(buf, layout);
    this.#meta = meta;
    this.#paths = paths;
    this.#resources = meta.resources.map((attributes) => resources.intern(attributes));
    this.#services = this.#resources.map((r) => serviceOf(r.attributes));
    this.#scopes = meta.scopes.map((s) => (s.version === undefined ? { name: s.name } : { name: s.name, version: s.version }));
    this.#extras = new Map(meta.extras);
    this.spans = layout.n;
    this.formats = { console: meta.formats[0], python: meta.formats[1], otlp: meta.formats[2] };
    this.malformed = meta.malformed.map(([file, line, reason]) => ({ file, line, reason }));
    this.parent = this.#c.parent;
    this.trace = this.#c.trace;
  }

  /**
   * Opens a compact file's `bytes`; `paths` names the inputs by index (a span's source file).
   * Returns null when the bytes are not a compact file of this version and byte order, or are cut
   * short (the caller reads the partition's lines instead).
   */
  static open(bytes: Buffer, paths: (file: number) => string, resources: ResourceCache): CompactSpans | null {
    if (bytes.length < HEADER_BYTES || !bytes.subarray(0, 8).equals(MAGIC)) return null;
    // typed-array views need their element alignment: a pooled (small) buffer may not have it
    const buf = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(bytes);
    const header = new Uint32Array(buf.buffer, buf.byteOffset + 8, 8);
    if (header[0] !== BYTE_ORDER_MARK || header[1] !== COMPACT_VERSION) return null;
    const layout = layoutOf(header[2]!, header[3]!);
    if (buf.length !== layout.meta + header[4]!) return null;
    let meta: CompactMeta;
    try {
      meta = JSON.parse(buf.toString('utf8', layout.meta)) as CompactMeta;
    } catch {
      return null;
    }
    if (!isMeta(meta)) return null;
    // the writer lists extras once each, in span order: a file with them otherwise is not ours
    const extras = meta.extras;
    if (!extras.every((e, k) => k === 0 || e[0] > extras[k - 1]![0])) return null;
    return new CompactSpans(buf, layout, meta, paths, resources);
  }

  /** The span id of span `i`. */
  idOf(i: number): string {
    const at = this.#layout.ids + 8 * i;
    return hexSlice.call(this.#buf, at, at + 8);
  }

  /** The id of the k-th parent that is not a span of this file. */
  externalId(k: number): string {
    return this.#meta.externals[k]!;
  }

  /** Span `i`, decoded. */
  decode(i: number): SpanRecord {
    const c = this.#c;
    const { traces, names, keys, values } = this.#meta;
    const file = c.file[i]!;
    if (file !== this.#lastFile) this.#path = this.#paths((this.#lastFile = file));
    const x = this.#extras.size === 0 ? undefined : this.#extras.get(i);
    const duration = c.duration[i]!;
    const ended = duration !== -1;
    const startNs = x?.s === undefined ? c.start[i]! : BigInt(x.s);
    // a span that never ended has its start as its end, as the lines give
    const endNs = !ended ? startNs : x?.t === undefined ? c.end[i]! : BigInt(x.t);
    const parent = c.parent[i]!;
    const code = c.code[i]!;
    const attributes: Attributes = {};
    for (let a = c.attributeStarts[i]!, end = c.attributeStarts[i + 1]!; a < end; a++) {
      const key = keys[c.attributePairs[2 * a]!]!;
      const value = values[c.attributePairs[2 * a + 1]!]!;
      // a key `__proto__` (JSON.parse makes it an own property) must not set the prototype
      if (key === '__proto__') Object.defineProperty(attributes, key, { value, enumerable: true, writable: true, configurable: true });
      else attributes[key] = value;
    }
    const resource = c.resource[i]!;
    const scope = c.scope[i]!;
    return {
      traceId: traces[c.trace[i]!]!,
      spanId: this.idOf(i),
      parentSpanId: parent >= 0 ? this.idOf(parent) : parent === -1 ? null : this.externalId(-2 - parent),
      name: names[c.name[i]!]!,
      kind: KINDS[c.kind[i]!]!,
      startNs,
      endNs,
      durationMs: ended ? duration / 1e6 : 0,
      ended,
      status: x?.m === undefined ? BARE_STATUS[code]! : { code: CODES[code]!, message: x.m },
      attributes,
      events: x?.e === undefined ? NO_EVENTS : x.e.map((e): SpanEvent => ({ name: e[0], timeNs: BigInt(e[1]), attributes: e[2] })),
      service: this.#services[resource]!,
      resource: this.#resources[resource]!,
      scope: scope === -1 ? null : this.#scopes[scope]!,
      source: { file: this.#path, line: c.line[i]! },
    };
  }
}

/** Byte offsets of the columns of a file of `n` spans and `pairs` attribute pairs; `meta` is where the meta section starts. */
function layoutOf(n: number, pairs: number) {
  const start = HEADER_BYTES;
  const end = start + 8 * n;
  const duration = end + 8 * n;
  const ints = duration + 8 * n;
  const attributeStarts = ints + 7 * 4 * n;
  const attributePairs = attributeStarts + 4 * (n + 1);
  const kind = attributePairs + 8 * pairs;
  const code = kind + n;
  const ids = code + n;
  return { n, pairs, start, end, duration, ints, attributeStarts, attributePairs, kind, code, ids, meta: ids + 8 * n };
}

function columnsOf(buf: Buffer, l: ReturnType<typeof layoutOf>) {
  const { buffer, byteOffset: o } = buf;
  const int = (k: number) => new Int32Array(buffer, o + l.ints + 4 * l.n * k, l.n);
  return {
    start: new BigInt64Array(buffer, o + l.start, l.n),
    end: new BigInt64Array(buffer, o + l.end, l.n),
    duration: new Float64Array(buffer, o + l.duration, l.n),
    parent: int(0),
    trace: int(1),
    name: int(2),
    resource: int(3),
    scope: int(4),
    file: int(5),
    line: int(6),
    attributeStarts: new Uint32Array(buffer, o + l.attributeStarts, l.n + 1),
    attributePairs: new Uint32Array(buffer, o + l.attributePairs, 2 * l.pairs),
    kind: new Uint8Array(buffer, o + l.kind, l.n),
    code: new Uint8Array(buffer, o + l.code, l.n),
  };
}

// The tables the columns refer to are there (a file cut or changed by hand is read past, not decoded).
function isMeta(m: unknown): m is CompactMeta {
  if (m === null || typeof m !== 'object') return false;
  const x = m as Record<string, unknown>;
  return ['formats', 'malformed', 'traces', 'names', 'resources', 'scopes', 'externals', 'keys', 'values', 'extras'].every((k) => Array.isArray(x[k]));
}

// Values numbered in the order they are first seen.
class Table<K> {
  readonly values: K[] = [];
  readonly #index = new Map<K, number>();

  indexOf(value: K): number {
    let i = this.#index.get(value);
    if (i === undefined) {
      i = this.values.push(value) - 1;
      this.#index.set(value, i);
    }
    return i;
  }
}
