/**
 * Reads spans and saturation metrics back from the store as the analyses take them: the whole
 * input in file order (a small run, or one rollout's part of a large one), or trace by trace from
 * DuckDB's result chunks — each batch whole traces, or, in a trace too large for one batch (runs
 * written before a trace per rollout put a whole run under `gym.job`), whole subtrees under its
 * root — so memory does not grow with the run.
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { DuckDBResult } from '@duckdb/node-api';
import { join } from 'node:path';
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findRollouts } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { isSaturationMetric, SATURATION_METRICS } from '../read/metric-points.js';
import type { MetricPoint } from '../read/metric-points.js';
import { makeStatus, readEvents, readLinks, serviceOf, spanTiming } from '../read/normalize.js';
import { ResourceCache } from '../read/resource-cache.js';
import type { Attributes, SpanEvent, SpanKindName, SpanLink, SpanRecord, SpanResource, SpanSource, StatusCodeName } from '../span-record.js';
import { FREED_MEMORY_BACK, memoryLimitBytes, onOneThread, sqlList, sqlString, withSettings } from './duck.js';
import type { TraceStore } from './open-store.js';
import { emptyTableSql } from './store-schema.js';

/** A trace with more spans than this is handed over in subtrees under its root. */
export const LARGE_TRACE_SPANS = 10_000;

/** One batch: whole rollouts (and whole traces outside rollouts), assembled. */
export interface Batch {
  set: TraceSet;
  rollouts: Rollout[];
  /**
   * When the run is read in several batches: the ids of the roots of traces split over batches
   * (a `gym.job` whose rollouts sit in other batches); null when the batch is the whole input.
   */
  shared: ReadonlySet<string> | null;
}

// Each span comes out of DuckDB as one JSON array (its attributes and events inside as they are
// stored), parsed by one JSON.parse: handing over each column's string on its own cost most of the
// read. A process's resource (hundreds of bytes, the same on each of its lines) and the file path
// are read once, not per span: a row carries a hash of its resource and its file's position in
// the input. Instants travel as strings: nanoseconds since 1970 exceed a double.
const SPAN_ROW = `json_array(trace_id, span_id, parent_span_id, name, kind, start_ns::VARCHAR, end_ns::VARCHAR, status_code, status_message, attributes::JSON, events::JSON, links::JSON,
  resource_hash::VARCHAR, scope_name, scope_version, line, file_index)::VARCHAR`;

// The row of the batched read (`readSpanBatches`): the same fields but the attributes, which
// follow the array after a \x01 (JSON text holds no raw control character) and are parsed only
// when an analysis first reads them: most spans' never are.
const BATCH_ROW = `json_array(trace_id, span_id, parent_span_id, name, kind, start_ns::VARCHAR, end_ns::VARCHAR, status_code, status_message, events::JSON, links::JSON,
  resource_hash::VARCHAR, scope_name, scope_version, line, file_index)::VARCHAR || chr(1) || attributes`;

// A row's fields before and after the attributes (which a BATCH_ROW array leaves out)
type HeadFields = [string, string, string | null, string, SpanKindName, string, string | null, StatusCodeName, string | null];
type TailFields = [unknown[] | null, unknown[] | null, string, string | null, string | null, number, number];
type BatchFields = [...HeadFields, ...TailFields];

// The events of the spans of the batched read that have none: one list (nothing adds to a span's
// events), not frozen, as `assemble-traces.ts`'s empty children (loops over it stay plain).
const NO_EVENTS: SpanEvent[] = [];

/** A status without a message, shared by the spans of the batched read. */
const STATUS: Readonly<Record<StatusCodeName, { code: StatusCodeName }>> = { UNSET: { code: 'UNSET' }, OK: { code: 'OK' }, ERROR: { code: 'ERROR' } };

/**
 * A span of the batched read: one object, its attributes kept as their text until first read.
 * Its status and scope objects are shared with the spans that have the same.
 */
class StoredSpan implements SpanRecord {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly name: string;
  readonly kind: SpanKindName;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly durationMs: number;
  readonly ended: boolean;
  readonly status: { code: StatusCodeName; message?: string };
  readonly events: SpanEvent[];
  declare readonly links?: SpanLink[];
  readonly service: string;
  readonly resource: SpanResource;
  readonly scope: { name: string; version?: string } | null;
  readonly source: SpanSource;
  #attributes: Attributes | string;

  constructor(f: BatchFields, attributes: string, resource: SpanResource, service: string, scope: { name: string; version?: string } | null, file: string) {
    this.traceId = f[0];
    this.spanId = f[1];
    this.parentSpanId = f[2];
    this.name = f[3];
    this.kind = f[4];
    const startNs = (this.startNs = BigInt(f[5]));
    const end = f[6] === null ? null : BigInt(f[6]);
    // as spanTiming: an end before the start (or none) means the span never ended
    this.ended = end !== null && end >= startNs;
    this.endNs = this.ended ? end! : startNs;
    this.durationMs = this.endNs > startNs ? Number(this.endNs - startNs) / 1e6 : 0;
    this.status = f[8] === null || f[8].length === 0 ? STATUS[f[7]] : { code: f[7], message: f[8] };
    this.events = f[9] === null ? NO_EVENTS : readEvents(f[9]);
    if (f[10] !== null) this.links = readLinks(f[10]);
    this.service = service;
    this.resource = resource;
    this.scope = scope;
    this.source = { file, line: f[14] };
    this.#attributes = attributes;
  }

  get attributes(): Attributes {
    const a = this.#attributes;
    return typeof a === 'string' ? (this.#attributes = JSON.parse(a) as Attributes) : a;
  }

  /**
   * True when the attributes, still text, cannot hold `key` (`isTruncated` asks every span): the
   * key does not appear in it, and no escape could spell it otherwise. False when unsure.
   */
  lacksAttribute(key: string): boolean {
    const a = this.#attributes;
    return typeof a === 'string' && !a.includes(key) && !a.includes('\\');
  }
}

/** Turns stored rows into {@link SpanRecord}s, sharing one resource object per process. */
class SpanRows {
  readonly #byHash: ReadonlyMap<bigint, SpanResource>;
  readonly #serviceOf = new Map<SpanResource, string>();
  readonly #files: readonly string[];

  constructor(byHash: ReadonlyMap<bigint, SpanResource>, files: readonly string[]) {
    this.#byHash = byHash;
    this.#files = files;
  }

  resource(hash: bigint): SpanResource {
    const r = this.#byHash.get(hash);
    if (r === undefined) throw new Error(`no resource with hash ${hash} in the store`);
    return r;
  }

  service(resource: SpanResource): string {
    let s = this.#serviceOf.get(resource);
    if (s === undefined) this.#serviceOf.set(resource, (s = serviceOf(resource.attributes)));
    return s;
  }

  /** The span of a row's {@link BATCH_ROW} text. */
  batchSpan(text: string): SpanRecord {
    const cut = text.indexOf('\x01');
    const f = JSON.parse(text.slice(0, cut)) as BatchFields;
    const resource = this.#resourceOfText(f[11]);
    return new StoredSpan(f, text.slice(cut + 1), resource, this.service(resource), this.#scope(f[12], f[13]), this.#files[f[15] - 1]!);
  }

  // by the hash's decimal text: no bigint made per span
  readonly #byHashText = new Map<string, SpanResource>();

  #resourceOfText(hash: string): SpanResource {
    let r = this.#byHashText.get(hash);
    if (r === undefined) this.#byHashText.set(hash, (r = this.resource(BigInt(hash))));
    return r;
  }

  // by name, then version
  readonly #scopes = new Map<string, Map<string | null, { name: string; version?: string }>>();

  #scope(name: string | null, version: string | null): { name: string; version?: string } | null {
    if (name === null) return null;
    let versions = this.#scopes.get(name);
    if (versions === undefined) this.#scopes.set(name, (versions = new Map<string | null, { name: string; version?: string }>()));
    let scope = versions.get(version);
    if (scope === undefined) versions.set(version, (scope = version === null ? { name } : { name, version }));
    return scope;
  }

  /** The span of a row's {@link SPAN_ROW} text. */
  span(text: string): SpanRecord {
    const [traceId, spanId, parentSpanId, name, kind, start, end, code, message, attributes, events, links, resourceHash, scopeName, scopeVersion, line, fileIndex] = JSON.parse(text) as [
      ...HeadFields,
      Attributes,
      ...TailFields,
    ];
    const resource = this.resource(BigInt(resourceHash));
    const startNs = BigInt(start);
    return {
      traceId,
      spanId,
      parentSpanId,
      name,
      kind,
      startNs,
      ...spanTiming(startNs, end === null ? null : BigInt(end)),
      status: makeStatus(code, message),
      attributes,
      events: events === null ? [] : readEvents(events),
      ...(links === null ? {} : { links: readLinks(links) }),
      service: this.service(resource),
      resource,
      scope: scopeName === null ? null : { name: scopeName, ...(scopeVersion === null ? {} : { version: scopeVersion }) },
      source: { file: this.#files[fileIndex - 1]!, line },
    };
  }
}

/**
 * A reader of rows for `store`: its resources are read first, once each — of the spans `where`
 * selects only, when given (then metric points are not read with it, unless `withMetrics`).
 */
export async function spanRows(store: TraceStore, where?: string, withMetrics = where === undefined): Promise<SpanRows> {
  const byHash = new Map<bigint, SpanResource>();
  const cache = new ResourceCache();
  const spans = store.parts('spans');
  const metrics = withMetrics ? store.parts('metrics') : [];
  const tables: string[] = [];
  if (spans.length > 0) tables.push(`SELECT resource FROM read_parquet(${sqlList(spans)}) WHERE ${where ?? 'true'}`);
  if (metrics.length > 0) tables.push(`SELECT resource FROM read_parquet(${sqlList(metrics)})`);
  if (tables.length > 0)
    for (const [hash, text] of (await store.duck.connection.runAndReadAll(`SELECT DISTINCT hash(resource), resource FROM (${tables.join(' UNION ALL ')})`)).getRows()) {
      const h = hash as bigint;
      const resource = cache.intern(JSON.parse(String(text)) as Attributes);
      // 64-bit hashes of a run's few resources do not collide; were they to, say so rather than mix them up
      if (byHash.has(h) && byHash.get(h) !== resource) throw new Error('two resources of the store share a hash');
      byHash.set(h, resource);
    }
  return new SpanRows(
    byHash,
    store.files.map((f) => store.givenPath.get(f.path) ?? f.path),
  );
}

function inputOrder(store: TraceStore): string {
  return `list_position(${sqlList(store.files.map((f) => f.path))}, file), chunk, seq`;
}

function spansOf(store: TraceStore): string {
  const parts = store.parts('spans');
  return parts.length === 0 ? `(${emptyTableSql('spans')})` : `read_parquet(${sqlList(parts)})`;
}

/** The rows of `from`: spans with their `resource`, or (`hashed`) with its hash as `resource_hash` instead. */
function selectSpans(store: TraceStore, from: string, hashed = false, row = SPAN_ROW): string {
  return `SELECT ${row} AS row, * FROM (SELECT *, ${hashed ? '' : 'hash(resource) AS resource_hash, '}list_position(${sqlList(store.files.map((f) => f.path))}, file) AS file_index FROM ${from})`;
}

/** Every span of the input, in the order of the files and their lines (as the reader reads them). */
export async function readAllSpans(store: TraceStore, rows: SpanRows, where = 'true'): Promise<SpanRecord[]> {
  const spans: SpanRecord[] = [];
  // filtered before each row is made: DuckDB reads only the row groups the predicate can match
  const result = await store.duck.connection.stream(`SELECT row FROM (${selectSpans(store, `(SELECT * FROM ${spansOf(store)} WHERE ${where})`)}) ORDER BY ${inputOrder(store)}`);
  for await (const chunk of result.yieldRows()) for (const row of chunk) spans.push(rows.span(row[0] as string));
  return spans;
}

/**
 * Calls `onSpan` with every span of the input in the order of the files and their lines, one
 * DuckDB result chunk at a time; when it returns a promise, the next span waits for it.
 * Returns the number of spans.
 */
export async function forEachStoredSpan(store: TraceStore, onSpan: (span: SpanRecord) => Promise<void> | undefined): Promise<number> {
  const c = store.duck.connection;
  const rows = await spanRows(store);
  const perSlice = await spansPerSort(store);
  let n = 0;
  // part by part (each a range of one file), and within a part by ranges of its line numbers that
  // fit one sort: its row groups go by line, so each range reads a few of them
  for (const part of store.parts('spans')) {
    const from = `read_parquet(${sqlString(part)})`;
    const [first, last] = (await c.runAndReadAll(`SELECT min(seq), max(seq) FROM ${from}`)).getRows()[0]!;
    if (first === null) continue;
    for (let lo = BigInt(first as bigint); lo <= BigInt(last as bigint); lo += BigInt(perSlice)) {
      const result = await c.stream(`SELECT row FROM (${selectSpans(store, `(SELECT * FROM ${from} WHERE seq >= ${lo} AND seq < ${lo + BigInt(perSlice)})`)}) ORDER BY seq`);
      for await (const chunk of result.yieldRows())
        for (const row of chunk) {
          n++;
          const wait = onSpan(rows.span(row[0] as string));
          if (wait !== undefined) await wait;
        }
    }
  }
  return n;
}

/**
 * Hands the input to `onBatch` in batches of whole units (a trace, or a subtree under the root of
 * a trace of more than `largeTraceSpans` spans) of about `maxSpans` spans; returns the number of batches.
 */
export async function readSpanBatches(store: TraceStore, rows: SpanRows, maxSpans: number, onBatch: (batch: Batch) => void, largeTraceSpans = LARGE_TRACE_SPANS): Promise<number> {
  const c = store.duck.connection;
  const shared = new Set<string>();
  let batch: SpanRecord[] = [];
  let unit: bigint | null = null;
  let batches = 0;
  const flush = () => {
    const set = assembleTraces(batch, { externalParents: shared });
    batch = [];
    batches++;
    onBatch({ set, rollouts: findRollouts(set), shared });
  };
  const take = async (result: DuckDBResult) => {
    // a chunk's columns whole: row arrays of its values cost more than the values
    for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const texts = chunk.getColumnValues(0) as string[];
      const units = chunk.getColumnValues(1) as bigint[];
      for (let i = 0; i < texts.length; i++) {
        const u = units[i]!;
        if (u !== unit && batch.length >= maxSpans) flush();
        unit = u;
        batch.push(rows.batchSpan(texts[i]!));
      }
      // the chunk's text freed now: a chunk is freed when its wrapper is collected, and wrappers
      // that outlive a young-generation collection wait for a full one, holding their text
      chunk.reset();
    }
  };
  // one row a trace, narrow: what tells whether any trace is large, and orders the traces when none is
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_traces AS
      SELECT trace_id, min(start_ns) AS trace_start, max(start_ns) AS last_start, count(*) AS n, count(start_ns) AS timed FROM ${spansOf(store)} GROUP BY trace_id`);
  const [largest, untimed] = (await c.runAndReadAll(`SELECT coalesce(max(n), 0), coalesce(sum(n - timed), 0) FROM gym_traces`)).getRows()[0]!;
  try {
    // DuckDB's allocator giving freed memory back past 16 MiB rather than 128: each slice's sort
    // allocates and frees its share of the limit
    await withSettings(c, FREED_MEMORY_BACK, async () => {
      if (Number(largest) <= largeTraceSpans) await inTraceOrder(store, Number(untimed) === 0, take);
      else await inUnitOrder(store, await splitLargeTraces(store, largeTraceSpans, shared), take);
    });
  } finally {
    await c.run('DROP TABLE IF EXISTS gym_traces');
  }
  if (batch.length > 0) flush();
  return batches;
}

/**
 * Splits the traces of more than `largeTraceSpans` spans (of `gym_traces`) into units, adding to
 * `shared` the ids of the roots split; returns what gives a source's spans their unit (`gym_unit`,
 * 0 outside split traces).
 */
async function splitLargeTraces(store: TraceStore, largeTraceSpans: number, shared: Set<string>): Promise<(from: string) => string> {
  const c = store.duck.connection;
  const spans = spansOf(store);
  // a root of a large trace with several children is split: each subtree under it is a unit.
  // The walk down the parent links works on numbers (a span id is 64 bits, a split trace is
  // numbered), so it holds 20 bytes a span of the split traces, not their strings.
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_big AS SELECT trace_id, row_number() OVER () AS t FROM gym_traces WHERE n > ${largeTraceSpans}`);
  await c.run('DROP TABLE gym_traces');
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_ids AS
      SELECT b.t, ('0x' || s.span_id)::UBIGINT AS s, ('0x' || s.parent_span_id)::UBIGINT AS p FROM ${spans} s JOIN gym_big b USING (trace_id)`);
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_split_roots AS
      SELECT DISTINCT r.t, r.s FROM gym_ids r JOIN (SELECT t, p, count(*) AS n FROM gym_ids WHERE p IS NOT NULL GROUP BY ALL) c ON c.t = r.t AND c.p = r.s
      WHERE r.p IS NULL AND c.n >= 2`);
  // each span of a split trace belongs to the subtree of one child of a root (the depth bound
  // stops a cycle of parent links)
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_units AS
      WITH RECURSIVE walk(t, s, unit, depth) AS (
        SELECT c.t, c.s, c.s, 1 FROM gym_ids c JOIN gym_split_roots r ON c.t = r.t AND c.p = r.s
        UNION ALL
        SELECT c.t, c.s, w.unit, w.depth + 1 FROM walk w JOIN gym_ids c ON c.t = w.t AND c.p = w.s WHERE w.depth < 256
      )
      SELECT t, s, min(unit) AS unit FROM walk GROUP BY t, s`);
  for (const [id] of (await c.runAndReadAll(`SELECT DISTINCT lower(printf('%016x', s)) FROM gym_split_roots`)).getRows()) shared.add(String(id));
  // the walk's tables count against the memory limit the read needs next
  await c.run('DROP TABLE gym_ids; DROP TABLE gym_split_roots');
  return (from: string) => `(SELECT s.*, coalesce(u.unit, 0) AS gym_unit FROM ${from} s LEFT JOIN gym_big b ON b.trace_id = s.trace_id
      LEFT JOIN gym_units u ON u.t = b.t AND u.s = ('0x' || s.span_id)::UBIGINT)`;
}

/**
 * Hands `read` the spans as results of (row text, trace number), trace by trace, when no trace is
 * split into units: traces go by their start (`gym_traces`), then their id, each trace's spans in
 * input order. A run whose rows do not fit one sort is read in slices of whole traces that do,
 * each from the spans that start within its traces' starts: rollouts are short and the files go
 * by time, so a slice reads a few of the files' row groups. With `timed` false (a span without a
 * start) every slice reads every span.
 */
async function inTraceOrder(store: TraceStore, timed: boolean, read: (result: DuckDBResult) => Promise<void>): Promise<void> {
  const c = store.duck.connection;
  const perSlice = await spansPerSort(store);
  // in the order of the traces, so that a slice's traces lie in a few of the table's row groups
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_trace_order AS
      SELECT trace_id, k, trace_start, last_start, (sum(n) OVER (ORDER BY k) - n) // ${perSlice} AS slice
      FROM (SELECT *, row_number() OVER (ORDER BY trace_start, trace_id) AS k FROM gym_traces) ORDER BY k`);
  // it holds a row a trace, as the order does, against the memory limit the read needs next
  await c.run('DROP TABLE gym_traces');
  // a scan of the store's files holds each row group's columns decompressed (tens of MiB in a
  // large run's row group) beside the sort, a row group a thread: one thread keeps that to one
  try {
    const slices = (await c.runAndReadAll(`SELECT slice, min(trace_start)::VARCHAR, max(last_start)::VARCHAR FROM gym_trace_order GROUP BY slice ORDER BY slice`)).getRows();
    await onOneThread(c, async () => {
      for (const [slice, first, last] of slices) {
        const within = timed ? `WHERE start_ns BETWEEN ${String(first)} AND ${String(last)}` : '';
        const from = `(SELECT s.*, o.k AS gym_k FROM (SELECT * FROM ${spansOf(store)} ${within}) s JOIN (SELECT trace_id, k FROM gym_trace_order WHERE slice = ${String(slice)}) o USING (trace_id))`;
        await read(await c.stream(`SELECT row, gym_k FROM (${selectSpans(store, from, false, BATCH_ROW)}) ORDER BY gym_k, ${inputOrder(store)}`));
      }
    });
  } finally {
    await c.run('DROP TABLE IF EXISTS gym_trace_order');
  }
}

/**
 * DuckDB's sort keeps several times its rows' text in memory and fails beyond its limit rather
 * than spill them: one sort holds rows of at most this share of the limit.
 */
const SORT_SHARE = 1 / 10;

/** How many spans one sort of their rows may hold ({@link SORT_SHARE}), from a sample of the rows' size. */
async function spansPerSort(store: TraceStore): Promise<number> {
  const c = store.duck.connection;
  const [rowBytes] = (await c.runAndReadAll(`SELECT coalesce(avg(strlen(row)), 0) FROM (${selectSpans(store, `(SELECT * FROM ${spansOf(store)} LIMIT 1000)`)})`)).getRows()[0]!;
  // the keys ride along with each row's text
  return Math.max(1000, Math.floor(((await memoryLimitBytes(c)) * SORT_SHARE) / (Number(rowBytes) + 100)));
}

/** Spans per row group of the slices' temporary file: the unit a slice's read skips by. */
const SLICE_ROW_GROUP = 8192;

/**
 * Hands `read` the spans with their units (`withUnits` of a source: its spans with `gym_unit`, 0
 * outside split traces) as results of (row text, unit number), unit by unit, each unit's spans in
 * input order. Units go by the start of their trace, then the trace, then (the rest of a trace
 * first) by their own start: numbered by sorting their keys alone, which DuckDB does within its
 * limit. A run whose rows fit in one sort is read in place. A larger one is written once to a
 * temporary file with each span's unit number and slice of the unit order (slices of whole units
 * that fit in one sort), and read slice by slice: units go by time as the files do, so a slice
 * lies in a few of the file's row groups.
 */
async function inUnitOrder(store: TraceStore, withUnits: (from: string) => string, read: (result: DuckDBResult) => Promise<void>): Promise<void> {
  const c = store.duck.connection;
  const spans = spansOf(store);
  const perSlice = await spansPerSort(store);
  const [spanCount] = (await c.runAndReadAll(`SELECT count(*) FROM ${spans}`)).getRows()[0]!;
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_unit_order AS
      SELECT trace_id, gym_unit, k, (sum(n) OVER (ORDER BY k) - n) // ${perSlice} AS slice FROM (
        SELECT trace_id, gym_unit, n, row_number() OVER (ORDER BY trace_start, trace_id, CASE WHEN gym_unit = 0 THEN NULL ELSE unit_start END NULLS FIRST, gym_unit) AS k
        FROM (SELECT *, min(unit_start) OVER (PARTITION BY trace_id) AS trace_start
              FROM (SELECT trace_id, gym_unit, min(start_ns) AS unit_start, count(*) AS n FROM ${withUnits(spans)} GROUP BY trace_id, gym_unit)))`);
  const sorted = (from: string, hashed: boolean) => `SELECT row, gym_k FROM (${selectSpans(store, from, hashed, BATCH_ROW)}) ORDER BY gym_k, ${inputOrder(store)}`;
  try {
    if (Number(spanCount) <= perSlice) return await read(await c.stream(sorted(`(SELECT s.*, o.k AS gym_k FROM ${withUnits(spans)} s JOIN gym_unit_order o USING (trace_id, gym_unit))`, false)));
    const dir = await mkdtemp(join(tmpdir(), 'gym-trace-order-'));
    try {
      const file = sqlString(join(dir, 'spans.parquet'));
      await writeNumbered(store, withUnits, sqlString(join(dir, 'numbers.parquet')), file);
      const [slices] = (await c.runAndReadAll(`SELECT max(slice) FROM gym_unit_order`)).getRows()[0]!;
      for (let n = 0; n <= Number(slices); n++) await read(await c.stream(sorted(`(SELECT * FROM read_parquet(${file}) WHERE gym_slice = ${n})`, true)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    await c.run('DROP TABLE IF EXISTS gym_unit_order');
  }
}

/**
 * Writes the spans to `file` with their unit number and slice (`gym_k`, `gym_slice`). Joining
 * the wide rows to a span's number by its ids ran out of the limit at 5M spans (a hash table of
 * every span of the split traces beside the write), so the numbers are written first, narrow,
 * in the order of the parts and their rows, and set beside the rows by position.
 */
async function writeNumbered(store: TraceStore, withUnits: (from: string) => string, numbers: string, file: string): Promise<void> {
  const c = store.duck.connection;
  const parts = sqlList(store.parts('spans'));
  const placed = withUnits(`read_parquet(${parts}, filename = true, file_row_number = true)`);
  await c.run(`COPY (SELECT list_position(${parts}, s.filename) AS part, s.file_row_number, s.chunk, s.seq, o.k, o.slice FROM ${placed} s JOIN gym_unit_order o USING (trace_id, gym_unit)
      ORDER BY part, file_row_number) TO ${numbers} (FORMAT parquet)`);
  // the walk's units are no longer needed, and hold memory
  await c.run('DROP TABLE gym_units');
  // one thread, in order: a positional join pairs the rows of two scans as they come
  await onOneThread(c, async () => {
    await c.run('SET preserve_insertion_order = true');
    await c.run(`COPY (SELECT s.* EXCLUDE (resource), hash(s.resource) AS resource_hash, n.k AS gym_k, n.slice AS gym_slice, n.chunk AS gym_chunk, n.seq AS gym_seq
        FROM read_parquet(${parts}) s POSITIONAL JOIN read_parquet(${numbers}) n) TO ${file} (FORMAT parquet, COMPRESSION lz4, ROW_GROUP_SIZE ${SLICE_ROW_GROUP})`);
  });
  const [misplaced] = (await c.runAndReadAll(`SELECT count(*) FROM read_parquet(${file}) WHERE chunk IS DISTINCT FROM gym_chunk OR seq IS DISTINCT FROM gym_seq`)).getRows()[0]!;
  if (Number(misplaced) !== 0) throw new Error(`the trace-order read paired ${Number(misplaced)} spans with another span's number`);
}

/** The saturation metric points of the input (`metric-points.ts`), in input order. */
export async function readSaturationPoints(store: TraceStore, rows: SpanRows): Promise<MetricPoint[]> {
  const parts = store.parts('metrics');
  if (parts.length === 0) return [];
  const names = SATURATION_METRICS.map((m) => (m.endsWith('.') ? `starts_with(name, ${sqlString(m)})` : `name = ${sqlString(m)}`)).join(' OR ');
  const result = await store.duck.connection.stream(`SELECT name, kind, temporality, service, hash(resource), attributes, start_ns, end_ns, value, count, sum
      FROM read_parquet(${sqlList(parts)}) WHERE ${names} ORDER BY ${inputOrder(store)}, point`);
  const points: MetricPoint[] = [];
  for await (const chunk of result.yieldRows())
    for (const [name, kind, temporality, service, resource, attributes, start, end, value, count, sum] of chunk) {
      if (!isSaturationMetric(String(name))) continue;
      points.push({
        name: String(name),
        kind: String(kind),
        temporality: temporality === 'DELTA' ? 'DELTA' : 'CUMULATIVE',
        service: String(service),
        resource: rows.resource(resource as bigint),
        attributes: JSON.parse(String(attributes)) as Attributes,
        startNs: start as bigint,
        endNs: end as bigint,
        value: value as number | null,
        count: count as number | null,
        sum: sum as number | null,
      });
    }
  return points;
}
