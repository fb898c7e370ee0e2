/**
 * The part of a large run `show --rollout <id>` and `why <id>` need: the rollout's trace, or, in a trace too
 * large to read whole (a run under `gym.job`), the subtree that holds the rollout under its
 * outermost ancestor of the rollout's time — found by point queries on the store (the rollout
 * index, then the spans of that time), without reading the rest of the run.
 * @module
 */
import type { DuckDBConnection, DuckDBListValue } from '@duckdb/node-api';
import { buildSaturation } from '../analyze/saturation.js';
import type { SaturationData } from '../analyze/saturation.js';
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findRollouts } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { sqlList, sqlString } from '../store/duck.js';
import type { TraceStore } from '../store/open-store.js';
import { SPAN } from '../span-record.js';
import { readAllSpans, readSaturationPoints, spanRows } from '../store/store-read.js';
import { resolvePaths } from './default-paths.js';
import { batchBytes, largeTraceSpans } from './load-batches.js';
import { withStore } from './load.js';
import type { InputOptions } from './load.js';
import type { CommandOutput } from './output.js';

/** The part of the run around one rollout. */
export interface RolloutPartition {
  set: TraceSet;
  rollouts: Rollout[];
  /** The whole run's saturation metrics (a few points a second per process), when asked for. */
  saturation: SaturationData | null;
}

/**
 * How far (ns) a span of a rollout may lie outside the interval of the rollout's outermost span
 * (clocks of two processes; work a span leaves running after it ends): the walks below look at the
 * spans of that time only, so that DuckDB reads the row groups of the rollout's time (their
 * min/max of `start_ns`) instead of the whole run.
 */
export const MARGIN_NS = 5_000_000_000n;

/**
 * The part of a large input around rollout `id` (with the run's saturation metrics when
 * `saturation`), or null when the input is small enough to read whole or the id is not a rollout
 * id there (then the caller reads the whole input).
 */
export async function loadRolloutPartition(options: InputOptions, id: string, out: CommandOutput, { saturation = false } = {}): Promise<RolloutPartition | null> {
  const paths = await resolvePaths(options.paths, options.cwd, out);
  return withStore(paths, out, async (store) => {
    if (store.stats.bytes <= batchBytes()) return null;
    const c = store.duck.connection;
    const found = (await c.runAndReadAll(`SELECT trace_id, span_id, start_ns FROM read_parquet(${sqlList(store.parts('rollouts'))}) WHERE rollout_id = ${sqlString(id)} LIMIT 1`)).getRows()[0];
    if (found === undefined) return null;
    const traceId = sqlString(String(found[0]));
    const spans = `read_parquet(${sqlList(store.parts('spans'))})`;
    const large = largeTraceSpans();
    const part = (await spansUpTo(c, spans, `trace_id = ${traceId}`, large)) > large ? await subtreeOfRollout(store, traceId, String(found[1]), found[2] as bigint) : null;
    const read = await readPart(store, part?.where ?? `trace_id = ${traceId}`, part?.external ?? null, saturation);
    return read.rollouts.some((r) => r.rolloutId === id) ? read : null;
  });
}

/** The spans `where` selects, assembled (`external`: parents left out on purpose), with the run's saturation metrics when `saturation`. */
async function readPart(store: TraceStore, where: string, external: Set<string> | null, saturation: boolean): Promise<RolloutPartition> {
  const rows = await spanRows(store, where, saturation);
  const set = assembleTraces(await readAllSpans(store, rows, where), { externalParents: external });
  return { set, rollouts: findRollouts(set), saturation: saturation ? buildSaturation(await readSaturationPoints(store, rows)) : null };
}

/** The number of spans `where` selects, counted no further than `limit + 1`: a run's one large trace is not read to its end. */
async function spansUpTo(c: DuckDBConnection, spans: string, where: string, limit: number): Promise<number> {
  return Number((await c.runAndReadAll(`SELECT count(*) FROM (SELECT 1 FROM ${spans} WHERE ${where} LIMIT ${limit + 1})`)).getRows()[0]![0]);
}

/**
 * The trace `id` (a full id or a unique prefix of at least 6 hex digits, as `findTrace` takes it)
 * of a large input, read alone, with the run's saturation metrics when `saturation`; null when the
 * input is small enough to read whole, no single trace matches, the trace is too large to read
 * alone, or it holds a `gym.job` (whose rollouts, in traces of their own, only the whole run counts):
 * then the caller reads the whole input.
 */
export async function loadTracePartition(options: InputOptions, id: string, out: CommandOutput, { saturation = false } = {}): Promise<RolloutPartition | null> {
  const norm = id.toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]+$/.test(norm)) return null;
  const paths = await resolvePaths(options.paths, options.cwd, out);
  return withStore(paths, out, async (store) => {
    if (store.stats.bytes <= batchBytes()) return null;
    const c = store.duck.connection;
    const spans = `read_parquet(${sqlList(store.parts('spans'))})`;
    const exact = (await c.runAndReadAll(`SELECT 1 FROM ${spans} WHERE trace_id = ${sqlString(norm)} LIMIT 1`)).getRows().length > 0;
    const matches = exact || norm.length < 6 ? [] : (await c.runAndReadAll(`SELECT DISTINCT trace_id FROM ${spans} WHERE starts_with(trace_id, ${sqlString(norm)}) LIMIT 2`)).getRows();
    if (!exact && matches.length !== 1) return null;
    const where = `trace_id = ${sqlString(exact ? norm : String(matches[0]![0]))}`;
    const large = largeTraceSpans();
    if ((await spansUpTo(c, spans, where, large)) > large) return null;
    const read = await readPart(store, where, null, saturation);
    return [...read.set.traces.values()].some((t) => t.roots.some((r) => r.span.name === SPAN.JOB)) ? null : read;
  });
}

/**
 * The ids of the `n` longest rollouts of a large input (by their `gym.rollout` span, as `show
 * --slowest` ranks them), found in SQL from the rollout index; null when the input is small enough
 * to read whole, or when a rollout has no id to find it by (then the caller reads the whole input).
 */
export async function slowestRolloutIds(options: InputOptions, n: number, out: CommandOutput): Promise<string[] | null> {
  const paths = await resolvePaths(options.paths, options.cwd, out);
  return withStore(paths, out, async (store) => {
    if (store.stats.bytes <= batchBytes()) return null;
    const c = store.duck.connection;
    const rollouts = `read_parquet(${sqlList(store.parts('rollouts'))})`;
    const [unnamed] = (await c.runAndReadAll(`SELECT count(*) FILTER (rollout_id IS NULL) FROM ${rollouts}`)).getRows()[0]!;
    if (Number(unnamed) > 0) return null;
    const rows = await c.runAndReadAll(`SELECT r.rollout_id FROM ${rollouts} r
      JOIN (SELECT trace_id, span_id, end_ns - start_ns AS d FROM read_parquet(${sqlList(store.parts('spans'))}) WHERE name = ${sqlString(SPAN.ROLLOUT)}) s
        ON s.trace_id = r.trace_id AND s.span_id = r.span_id
      ORDER BY s.d DESC NULLS LAST, r.start_ns, r.rollout_id LIMIT ${n}`);
    return rows.getRows().map(([id]) => String(id));
  });
}

interface Found {
  spanId: string;
  parent: string | null;
  start: bigint;
  end: bigint;
}

/** Subtrees of at most this many spans are read by a list of their ids, which DuckDB filters in the scan. */
const LISTED_SPANS = 4096;

/**
 * The rows to read for span `rolloutSpan` (which starts at `rolloutStart`) of trace `traceId` (a
 * predicate): the subtree under its outermost ancestor within its time, and that ancestor's parent
 * when it is the trace's root; `external` names the parent left out (a `gym.job` that began long
 * before). The spans of the rollout's time are read once, into a temporary table, with a margin
 * that holds the walks up and down in the usual case; an ancestor that lasts longer has its time
 * read again.
 */
async function subtreeOfRollout(store: TraceStore, traceId: string, rolloutSpan: string, rolloutStart: bigint): Promise<{ where: string; external: Set<string> } | null> {
  const c = store.duck.connection;
  const spans = `read_parquet(${sqlList(store.parts('spans'))})`;
  const within = (from: bigint, to: bigint) => `trace_id = ${traceId} AND start_ns BETWEEN ${from - MARGIN_NS} AND ${to + MARGIN_NS}`;
  const one = async (from: string, where: string): Promise<Found | null> => {
    const row = (await c.runAndReadAll(`SELECT span_id, parent_span_id, start_ns, greatest(coalesce(end_ns, start_ns), start_ns) FROM ${from} WHERE ${where} LIMIT 1`)).getRows()[0];
    return row === undefined ? null : { spanId: String(row[0]), parent: row[1] === null ? null : String(row[1]), start: row[2] as bigint, end: row[3] as bigint };
  };
  // the index's start finds the row groups of the rollout's span
  const rollout = await one(spans, `trace_id = ${traceId} AND start_ns = ${rolloutStart} AND span_id = ${sqlString(rolloutSpan)}`);
  if (rollout === null) return null;
  // the spans of the rollout's time, with two margins before and after: the walk up looks within
  // one, and the subtree of an ancestor found there starts within two unless it ends later
  const loaded = { from: rollout.start - 2n * MARGIN_NS, to: rollout.end + 2n * MARGIN_NS };
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_near AS SELECT span_id, parent_span_id, start_ns, end_ns FROM ${spans}
    WHERE trace_id = ${traceId} AND start_ns BETWEEN ${loaded.from} AND ${loaded.to}`);
  try {
    // up from the rollout while the parent is of its time; a root of that time is read as well
    const near = within(rollout.start, rollout.end);
    const nearRows = `start_ns BETWEEN ${rollout.start - MARGIN_NS} AND ${rollout.end + MARGIN_NS}`;
    let top = rollout;
    let root: Found | null = null;
    for (let depth = 0; top.parent !== null && depth < 256; depth++) {
      const parent = await one('gym_near', `${nearRows} AND span_id = ${sqlString(top.parent)}`);
      if (parent === null) break;
      if (parent.parent === null) {
        root = parent;
        break;
      }
      top = parent;
    }
    const inLoaded = top.start - MARGIN_NS >= loaded.from && top.end + MARGIN_NS <= loaded.to;
    const window = inLoaded ? `(SELECT * FROM gym_near WHERE start_ns BETWEEN ${top.start - MARGIN_NS} AND ${top.end + MARGIN_NS})` : `(SELECT * FROM ${spans} WHERE ${within(top.start, top.end)})`;
    const ids = await subtreeIds(c, window, top.spanId);
    const listed = (list: string[]) => `span_id IN (${list.map(sqlString).join(', ')})`;
    const subtree =
      ids === null
        ? `(${within(top.start, top.end)} AND span_id IN (SELECT span_id FROM gym_subtree))`
        : `(trace_id = ${traceId} AND start_ns BETWEEN ${ids.from} AND ${ids.to} AND ${listed(ids.list)})`;
    const withRoot = root === null ? subtree : `(${subtree} OR (${near} AND span_id = ${sqlString(root.spanId)}))`;
    // what both sides of the OR share, beside it: DuckDB filters the scan by plain conditions only
    const shared =
      ids === null || root === null
        ? null
        : `trace_id = ${traceId} AND start_ns BETWEEN ${min(ids.from, rollout.start - MARGIN_NS)} AND ${max(ids.to, rollout.end + MARGIN_NS)} AND ${listed([...ids.list, root.spanId])}`;
    return {
      where: shared === null ? withRoot : `${shared} AND ${withRoot}`,
      external: new Set(top.parent === null || root !== null ? [] : [top.parent]),
    };
  } finally {
    await c.run('DROP TABLE IF EXISTS gym_near');
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * The subtree under `top` among the spans of `window`, in the temporary table `gym_subtree`; and
 * when it is small, its ids and the least and greatest start of its rows in the window (then the
 * read filters by them in the scan, and the table is dropped).
 */
async function subtreeIds(c: DuckDBConnection, window: string, top: string): Promise<{ list: string[]; from: bigint; to: bigint } | null> {
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_window AS SELECT span_id, parent_span_id, start_ns FROM ${window}`);
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_subtree AS WITH RECURSIVE down(span_id, depth) AS (
      SELECT ${sqlString(top)}, 0 UNION ALL SELECT w.span_id, down.depth + 1 FROM down JOIN gym_window w ON w.parent_span_id = down.span_id WHERE down.depth < 256)
    SELECT DISTINCT span_id FROM down`);
  const [count] = (await c.runAndReadAll(`SELECT count(*) FROM gym_subtree`)).getRows()[0]!;
  if (Number(count) > LISTED_SPANS) return null;
  const [list, from, to] = (
    await c.runAndReadAll(`SELECT (SELECT list(span_id) FROM gym_subtree), min(start_ns), max(start_ns) FROM gym_window WHERE span_id IN (SELECT span_id FROM gym_subtree)`)
  ).getRows()[0]!;
  // (none in the window: read as the table says)
  if (from === null) return null;
  await c.run('DROP TABLE gym_window; DROP TABLE gym_subtree');
  return { list: ((list as DuckDBListValue).items as string[]).map(String), from: from as bigint, to: to as bigint };
}
