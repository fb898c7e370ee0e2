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
import { makeStatus, readEvents, spanTiming } from '../read/normalize.js';
import { ResourceCache } from '../read/resource-cache.js';
import type { Attributes, SpanKindName, SpanRecord, SpanResource, StatusCodeName } from '../span-record.js';
import { sqlList, sqlString } from './duck.js';
import type { TraceStore } from './open-store.js';

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

const SPAN_COLUMNS = 'trace_id, span_id, parent_span_id, name, kind, start_ns, end_ns, status_code, status_message, attributes, events, resource, service, scope_name, scope_version, file, line';

/** Turns stored rows into {@link SpanRecord}s, sharing one resource object per process. */
class SpanRows {
  readonly #resources = new ResourceCache();
  readonly #byText = new Map<string, SpanResource>();
  readonly #givenPath: ReadonlyMap<string, string>;

  constructor(givenPath: ReadonlyMap<string, string>) {
    this.#givenPath = givenPath;
  }

  resource(text: string): SpanResource {
    let r = this.#byText.get(text);
    if (r === undefined) this.#byText.set(text, (r = this.#resources.intern(JSON.parse(text) as Attributes)));
    return r;
  }

  span(row: readonly unknown[]): SpanRecord {
    const [traceId, spanId, parentSpanId, name, kind, start, end, code, message, attributes, events, resource, service, scopeName, scopeVersion, file, line] = row as [
      string,
      string,
      string | null,
      string,
      SpanKindName,
      bigint,
      bigint | null,
      StatusCodeName,
      string | null,
      string,
      string | null,
      string,
      string,
      string | null,
      string | null,
      string,
      bigint,
    ];
    return {
      traceId,
      spanId,
      parentSpanId,
      name,
      kind,
      startNs: start,
      ...spanTiming(start, end),
      status: makeStatus(code, message),
      attributes: JSON.parse(attributes) as Attributes,
      events: events === null ? [] : readEvents(JSON.parse(events)),
      service,
      resource: this.resource(resource),
      scope: scopeName === null ? null : { name: scopeName, ...(scopeVersion === null ? {} : { version: scopeVersion }) },
      source: { file: this.#givenPath.get(file) ?? file, line: Number(line) },
    };
  }
}

function inputOrder(store: TraceStore): string {
  return `list_position(${sqlList(store.files.map((f) => f.path))}, file), chunk, seq`;
}

function spansOf(store: TraceStore): string {
  const parts = store.parts('spans');
  return parts.length === 0 ? `(SELECT ${SPAN_COLUMNS}, NULL::INTEGER AS chunk, NULL::BIGINT AS seq WHERE false)` : `read_parquet(${sqlList(parts)})`;
}

/** Every span of the input, in the order of the files and their lines (as the reader reads them). */
export async function readAllSpans(store: TraceStore, rows = spanRows(store), where = 'true'): Promise<SpanRecord[]> {
  const spans: SpanRecord[] = [];
  const result = await store.duck.connection.stream(`SELECT ${SPAN_COLUMNS} FROM ${spansOf(store)} WHERE ${where} ORDER BY ${inputOrder(store)}`);
  for await (const chunk of result.yieldRows()) for (const row of chunk) spans.push(rows.span(row));
  return spans;
}

/**
 * Calls `onSpan` with every span of the input in the order of the files and their lines, one
 * DuckDB result chunk at a time; when it returns a promise, the next span waits for it.
 * Returns the number of spans.
 */
export async function forEachStoredSpan(store: TraceStore, onSpan: (span: SpanRecord) => Promise<void> | undefined): Promise<number> {
  const rows = spanRows(store);
  let n = 0;
  const result = await store.duck.connection.stream(`SELECT ${SPAN_COLUMNS} FROM ${spansOf(store)} ORDER BY ${inputOrder(store)}`);
  for await (const chunk of result.yieldRows())
    for (const row of chunk) {
      n++;
      const wait = onSpan(rows.span(row));
      if (wait !== undefined) await wait;
    }
  return n;
}

/**
 * Hands the input to `onBatch` in batches of whole units (a trace, or a subtree under the root of
 * a trace of more than `largeTraceSpans` spans) of about `maxSpans` spans; returns the number of batches.
 */
export async function readSpanBatches(store: TraceStore, maxSpans: number, onBatch: (batch: Batch) => void, largeTraceSpans = LARGE_TRACE_SPANS): Promise<number> {
  const c = store.duck.connection;
  const spans = spansOf(store);
  // a root of a large trace with several children is split: each subtree under it is a unit
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_split_roots AS
      WITH big AS (SELECT trace_id FROM ${spans} GROUP BY trace_id HAVING count(*) > ${largeTraceSpans}),
      children AS (SELECT trace_id, parent_span_id AS span_id, count(*) AS n FROM ${spans} WHERE trace_id IN (SELECT trace_id FROM big) AND parent_span_id IS NOT NULL GROUP BY ALL)
      SELECT DISTINCT s.trace_id, s.span_id FROM ${spans} s JOIN children USING (trace_id, span_id)
      WHERE s.parent_span_id IS NULL AND s.trace_id IN (SELECT trace_id FROM big) AND children.n >= 2`);
  // each span of a split trace belongs to the subtree of one child of a root (the depth bound
  // stops a cycle of parent links)
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_units AS
      WITH RECURSIVE ids AS (SELECT trace_id, span_id, parent_span_id FROM ${spans} WHERE trace_id IN (SELECT trace_id FROM gym_split_roots)),
      walk(trace_id, span_id, unit, depth) AS (
        SELECT c.trace_id, c.span_id, c.span_id, 1 FROM ids c JOIN gym_split_roots r ON c.trace_id = r.trace_id AND c.parent_span_id = r.span_id
        UNION ALL
        SELECT c.trace_id, c.span_id, w.unit, w.depth + 1 FROM walk w JOIN ids c ON c.trace_id = w.trace_id AND c.parent_span_id = w.span_id WHERE w.depth < 256
      )
      SELECT trace_id, span_id, min(unit) AS unit FROM walk GROUP BY trace_id, span_id`);
  const shared = new Set<string>();
  for (const [id] of (await c.runAndReadAll('SELECT DISTINCT span_id FROM gym_split_roots')).getRows()) shared.add(String(id));
  const rows = new SpanRows(store.givenPath);
  let batch: SpanRecord[] = [];
  let unit: string | null = null;
  let batches = 0;
  const flush = () => {
    const set = assembleTraces(batch, { externalParents: shared });
    batch = [];
    batches++;
    onBatch({ set, rollouts: findRollouts(set), shared });
  };
  const result = await c.stream(`SELECT ${SPAN_COLUMNS}, coalesce(u.unit, s.trace_id) AS gym_unit
      FROM ${spans} s LEFT JOIN gym_units u USING (trace_id, span_id)
      ORDER BY gym_unit, ${inputOrder(store)}`);
  for await (const chunk of result.yieldRows())
    for (const row of chunk) {
      const u = row[17] as string;
      if (u !== unit && batch.length >= maxSpans) flush();
      unit = u;
      batch.push(rows.span(row));
    }
  if (batch.length > 0) flush();
  return batches;
}

/** The saturation metric points of the input (`metric-points.ts`), in input order. */
export async function readSaturationPoints(store: TraceStore, rows = spanRows(store)): Promise<MetricPoint[]> {
  const parts = store.parts('metrics');
  if (parts.length === 0) return [];
  const names = SATURATION_METRICS.map((m) => (m.endsWith('.') ? `starts_with(name, ${sqlString(m)})` : `name = ${sqlString(m)}`)).join(' OR ');
  const result = await store.duck.connection.stream(`SELECT name, kind, temporality, service, resource, attributes, start_ns, end_ns, value, count, sum
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
        resource: rows.resource(String(resource)),
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

/** A reader of rows that shares resource objects between spans and metric points. */
export function spanRows(store: TraceStore): SpanRows {
  return new SpanRows(store.givenPath);
}
