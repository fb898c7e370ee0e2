/**
 * Reads spans and saturation metrics back from the store as the analyses take them: the whole
 * input in file order (a small run, or one rollout's part of a large one), or trace by trace from
 * DuckDB's result chunks — each batch whole traces, or, in a trace too large for one batch (the
 * `default` preset puts a whole run under `gym.job`), whole subtrees under its root — so memory
 * does not grow with the run.
 * @module
 */
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findRollouts } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { isSaturationMetric, SATURATION_METRICS } from '../read/metric-points.js';
import type { MetricPoint } from '../read/metric-points.js';
import { makeStatus, readEvents, readLinks, serviceOf, spanTiming } from '../read/normalize.js';
import { ResourceCache } from '../read/resource-cache.js';
import type { Attributes, SpanKindName, SpanRecord, SpanResource, StatusCodeName } from '../span-record.js';
import { sqlList, sqlString } from './duck.js';
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
  hash(resource)::VARCHAR, scope_name, scope_version, line, file_index)::VARCHAR`;

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

  /** The span of a row's {@link SPAN_ROW} text. */
  span(text: string): SpanRecord {
    const [traceId, spanId, parentSpanId, name, kind, start, end, code, message, attributes, events, links, resourceHash, scopeName, scopeVersion, line, fileIndex] = JSON.parse(text) as [
      string,
      string,
      string | null,
      string,
      SpanKindName,
      string,
      string | null,
      StatusCodeName,
      string | null,
      Attributes,
      unknown[] | null,
      unknown[] | null,
      string,
      string | null,
      string | null,
      number,
      number,
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
 * selects only, when given (then metric points are not read with it).
 */
export async function spanRows(store: TraceStore, where?: string): Promise<SpanRows> {
  const byHash = new Map<bigint, SpanResource>();
  const cache = new ResourceCache();
  const parts = where === undefined ? [store.parts('spans'), store.parts('metrics')] : [store.parts('spans')];
  const tables = parts.filter((p) => p.length > 0).map((p) => `SELECT resource FROM read_parquet(${sqlList(p)}) WHERE ${where ?? 'true'}`);
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

function selectSpans(store: TraceStore, from: string): string {
  return `SELECT ${SPAN_ROW} AS row, * FROM (SELECT *, list_position(${sqlList(store.files.map((f) => f.path))}, file) AS file_index FROM ${from})`;
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
  const rows = await spanRows(store);
  let n = 0;
  const result = await store.duck.connection.stream(`SELECT row FROM (${selectSpans(store, spansOf(store))}) ORDER BY ${inputOrder(store)}`);
  for await (const chunk of result.yieldRows())
    for (const row of chunk) {
      n++;
      const wait = onSpan(rows.span(row[0] as string));
      if (wait !== undefined) await wait;
    }
  return n;
}

/**
 * Hands the input to `onBatch` in batches of whole units (a trace, or a subtree under the root of
 * a trace of more than `largeTraceSpans` spans) of about `maxSpans` spans; returns the number of batches.
 */
export async function readSpanBatches(store: TraceStore, rows: SpanRows, maxSpans: number, onBatch: (batch: Batch) => void, largeTraceSpans = LARGE_TRACE_SPANS): Promise<number> {
  const c = store.duck.connection;
  const spans = spansOf(store);
  // a root of a large trace with several children is split: each subtree under it is a unit.
  // The walk down the parent links works on numbers (a span id is 64 bits, a split trace is
  // numbered), so it holds 20 bytes a span of the split traces, not their strings.
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_big AS
      SELECT trace_id, row_number() OVER () AS t FROM (SELECT trace_id FROM ${spans} GROUP BY trace_id HAVING count(*) > ${largeTraceSpans})`);
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
  const shared = new Set<string>();
  for (const [id] of (await c.runAndReadAll(`SELECT DISTINCT lower(printf('%016x', s)) FROM gym_split_roots`)).getRows()) shared.add(String(id));
  let batch: SpanRecord[] = [];
  let unit: bigint | null = null;
  let batches = 0;
  const flush = () => {
    const set = assembleTraces(batch, { externalParents: shared });
    batch = [];
    batches++;
    onBatch({ set, rollouts: findRollouts(set), shared });
  };
  const withUnits = `(SELECT s.*, u.unit AS gym_unit FROM ${spans} s LEFT JOIN gym_big b ON b.trace_id = s.trace_id
      LEFT JOIN gym_units u ON u.t = b.t AND u.s = ('0x' || s.span_id)::UBIGINT)`;
  const result = await c.stream(`SELECT row, hash(trace_id, gym_unit) FROM (${selectSpans(store, withUnits)})
      ORDER BY trace_id, gym_unit NULLS FIRST, ${inputOrder(store)}`);
  for await (const chunk of result.yieldRows())
    for (const row of chunk) {
      const u = row[1] as bigint;
      if (u !== unit && batch.length >= maxSpans) flush();
      unit = u;
      batch.push(rows.span(row[0] as string));
    }
  if (batch.length > 0) flush();
  return batches;
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
