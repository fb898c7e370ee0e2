/**
 * The compact form of a partition's spans (`<i>.spans` beside `<i>.part`): every field of each
 * span as the reader normalised it, with what repeats (trace ids, names, resources, scopes) written
 * once per partition and referred to by number. Commands that read a whole run read this instead
 * of the partition's console lines: one `JSON.parse` of a file about a third of the size, no
 * normalising, and one string per repeated id or name instead of one per span. It is written the
 * first time a partition is read in full, and it is an exact copy: the spans decoded from it are
 * equal, field by field, to those read from the lines.
 * @module
 */
import type { Attributes, SpanEvent, SpanKindName, SpanRecord, SpanResource, StatusCodeName } from '../span-record.js';
import { serviceOf } from '../read/normalize.js';
import type { ResourceCache } from '../read/resource-cache.js';

/** Version of the compact layout: a file of another version is not read (the lines are, and it is rewritten). */
export const COMPACT_VERSION = 2;

const KINDS: readonly SpanKindName[] = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const KIND_INDEX: Record<SpanKindName, number> = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 };
const CODES: readonly StatusCodeName[] = ['UNSET', 'OK', 'ERROR'];
const CODE_INDEX: Record<StatusCodeName, number> = { UNSET: 0, OK: 1, ERROR: 2 };
// a status without a message, and no events, are the same for every span: shared (nothing
// writes to them; frozen, so that nothing can)
const BARE_STATUS = CODES.map((code) => Object.freeze({ code }));
const NO_EVENTS = Object.freeze([]) as unknown as SpanEvent[];
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * One span: trace (index), span id, parent (the index of a span of the partition with that id, or
 * the id), name (index), kind (index), start (ns after the document's `base`, or a decimal string
 * of unix ns past 2^53), end − start in ns (−1: never ended; a decimal string past 2^53), status
 * code (index), status message, attributes, events (0: none), resource (index), scope (index,
 * −1: none), file, line. Parents by index and the shared tables give the decoded spans one string
 * per id and name: less to allocate, and map lookups by parent id that compare one string with itself.
 */
type CompactSpan = [number, string, number | string | null, number, number, number | string, number | string, number, string | null, Attributes, CompactEvent[] | 0, number, number, number, number];
type CompactEvent = [string, string, Attributes];

/** The file's JSON document. */
interface CompactDocument {
  version: number;
  /** Spans read per input format: console, python, otlp. */
  formats: [number, number, number];
  /** Records of the partition that could not be used, in order: file index, line, reason. */
  malformed: Array<[number, number, string]>;
  /** Unix ns (decimal) the starts count from: the earliest start. */
  base: string;
  traces: string[];
  names: string[];
  resources: Attributes[];
  scopes: Array<{ name: string; version?: string }>;
  spans: CompactSpan[];
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
  readonly #spans: CompactSpan[] = [];
  // the first span of each id, and each span's start (both resolved in `text`)
  readonly #firstOf = new Map<string, number>();
  readonly #starts: bigint[] = [];

  /** Adds a span read from line `line` of input `file`, in the input `format` (0 console, 1 python, 2 otlp). */
  add(s: SpanRecord, file: number, line: number, format: 0 | 1 | 2): void {
    this.#formats[format]++;
    const duration = s.endNs - s.startNs;
    const end = !s.ended ? -1 : duration <= MAX_SAFE ? Number(duration) : duration.toString();
    if (!this.#firstOf.has(s.spanId)) this.#firstOf.set(s.spanId, this.#spans.length);
    this.#starts.push(s.startNs);
    this.#spans.push([
      this.#traces.indexOf(s.traceId),
      s.spanId,
      s.parentSpanId,
      this.#names.indexOf(s.name),
      KIND_INDEX[s.kind],
      0,
      end,
      CODE_INDEX[s.status.code],
      s.status.message ?? null,
      s.attributes,
      s.events.length === 0 ? 0 : s.events.map((e) => [e.name, e.timeNs.toString(), e.attributes]),
      this.#resources.indexOf(s.resource),
      s.scope === null ? -1 : this.#scopeIndex(s.scope),
      file,
      line,
    ]);
  }

  /** Adds a record that could not be used. */
  malformed(file: number, line: number, reason: string): void {
    this.#malformed.push([file, line, reason]);
  }

  /** The compact file's text. */
  text(): string {
    let base: bigint | null = null;
    for (const t of this.#starts) if (base === null || t < base) base = t;
    base ??= 0n;
    this.#spans.forEach((c, i) => {
      const after = this.#starts[i]! - base;
      c[5] = after <= MAX_SAFE ? Number(after) : this.#starts[i]!.toString();
      if (typeof c[2] === 'string') c[2] = this.#firstOf.get(c[2]) ?? c[2];
    });
    const doc: CompactDocument = {
      version: COMPACT_VERSION,
      formats: this.#formats,
      malformed: this.#malformed,
      base: base.toString(),
      traces: this.#traces.values,
      names: this.#names.values,
      resources: this.#resources.values.map((r) => r.attributes),
      scopes: this.#scopeList,
      spans: this.#spans,
    };
    return JSON.stringify(doc);
  }

  #scopeIndex(scope: { name: string; version?: string }): number {
    const key = scope.version === undefined ? scope.name : `${scope.name}\u0000${scope.version}`;
    const before = this.#scopes.values.length;
    const i = this.#scopes.indexOf(key);
    if (i === before) this.#scopeList.push(scope);
    return i;
  }
}

/** What a compact file holds, decoded. */
export interface CompactSpans {
  /** Spans per input format. */
  formats: { console: number; python: number; otlp: number };
  malformed: MalformedAt[];
  spans: number;
}

/**
 * Decodes a compact file's `text`, handing each span to `onSpan` in the order it was read; `paths`
 * names the inputs by index (a span's source file). Returns null when the text is not a compact
 * file of this version (the caller reads the partition's lines instead).
 */
export function readCompactSpans(text: string, paths: (file: number) => string, resources: ResourceCache, onSpan: (s: SpanRecord) => void): CompactSpans | null {
  let doc: CompactDocument;
  try {
    doc = JSON.parse(text) as CompactDocument;
  } catch {
    return null;
  }
  if (doc === null || typeof doc !== 'object' || doc.version !== COMPACT_VERSION || !Array.isArray(doc.spans)) return null;
  const shared = doc.resources.map((attributes) => resources.intern(attributes));
  const services = shared.map((r) => serviceOf(r.attributes));
  const scopes = doc.scopes.map((s) => (s.version === undefined ? { name: s.name } : { name: s.name, version: s.version }));
  const { traces, names, spans } = doc;
  const base = BigInt(doc.base);
  let lastFile = -1;
  let path = '';
  for (const c of spans) {
    if (c[13] !== lastFile) path = paths((lastFile = c[13]));
    const startNs = typeof c[5] === 'number' ? base + BigInt(c[5]) : BigInt(c[5]);
    const ended = c[6] !== -1;
    const endNs = !ended ? startNs : startNs + BigInt(c[6]);
    onSpan({
      traceId: traces[c[0]]!,
      spanId: c[1],
      parentSpanId: typeof c[2] === 'number' ? spans[c[2]]![1] : c[2],
      name: names[c[3]]!,
      kind: KINDS[c[4]]!,
      startNs,
      endNs,
      durationMs: !ended ? 0 : typeof c[6] === 'number' ? c[6] / 1e6 : Number(endNs - startNs) / 1e6,
      ended,
      status: c[8] === null ? BARE_STATUS[c[7]]! : { code: CODES[c[7]]!, message: c[8] },
      attributes: c[9],
      events: c[10] === 0 ? NO_EVENTS : c[10].map((e): SpanEvent => ({ name: e[0], timeNs: BigInt(e[1]), attributes: e[2] })),
      service: services[c[11]]!,
      resource: shared[c[11]]!,
      scope: c[12] === -1 ? null : scopes[c[12]]!,
      source: { file: path, line: c[14] },
    });
  }
  return {
    formats: { console: doc.formats[0], python: doc.formats[1], otlp: doc.formats[2] },
    malformed: doc.malformed.map(([file, line, reason]) => ({ file, line, reason })),
    spans: doc.spans.length,
  };
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
