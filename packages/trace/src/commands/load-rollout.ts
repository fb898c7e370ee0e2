/**
 * The part of a large run `show --rollout <id>` needs: the rollout's trace, or, in a trace too
 * large to read whole (a run under `gym.job`), the subtree that holds the rollout under its
 * outermost ancestor of the rollout's time — found by point queries on the store (the rollout
 * index, then the spans of that time), without reading the rest of the run.
 * @module
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findRollouts } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { sqlList, sqlString } from '../store/duck.js';
import type { TraceStore } from '../store/open-store.js';
import { readAllSpans, spanRows } from '../store/store-read.js';
import { resolvePaths } from './default-paths.js';
import { batchBytes, largeTraceSpans } from './load-batches.js';
import { withStore } from './load.js';
import type { InputOptions } from './load.js';
import type { CommandOutput } from './output.js';

/** The part of the run around one rollout. */
export interface RolloutPartition {
  set: TraceSet;
  rollouts: Rollout[];
}

/**
 * How far (ns) a span of a rollout may lie outside the interval of the rollout's outermost span
 * (clocks of two processes; work a span leaves running after it ends): the walks below look at the
 * spans of that time only, so that DuckDB reads the row groups of the rollout's time (their
 * min/max of `start_ns`) instead of the whole run.
 */
export const MARGIN_NS = 5_000_000_000n;

/**
 * The part of a large input around rollout `id`, or null when the input is small enough to read
 * whole or the id is not a rollout id there (then the caller reads the whole input).
 */
export async function loadRolloutPartition(options: InputOptions, id: string, out: CommandOutput): Promise<RolloutPartition | null> {
  const paths = await resolvePaths(options.paths, options.cwd, out);
  return withStore(paths, out, async (store) => {
    if (store.stats.bytes <= batchBytes()) return null;
    const c = store.duck.connection;
    const found = (await c.runAndReadAll(`SELECT trace_id, span_id FROM read_parquet(${sqlList(store.parts('rollouts'))}) WHERE rollout_id = ${sqlString(id)} LIMIT 1`)).getRows()[0];
    if (found === undefined) return null;
    const traceId = sqlString(String(found[0]));
    const spans = `read_parquet(${sqlList(store.parts('spans'))})`;
    const size = Number((await c.runAndReadAll(`SELECT count(*) FROM ${spans} WHERE trace_id = ${traceId}`)).getRows()[0]![0]);
    const part = size > largeTraceSpans() ? await subtreeOfRollout(store, traceId, String(found[1])) : null;
    const where = part?.where ?? `trace_id = ${traceId}`;
    const set = assembleTraces(await readAllSpans(store, await spanRows(store, where), where), { externalParents: part?.external ?? null });
    const rollouts = findRollouts(set);
    return rollouts.some((r) => r.rolloutId === id) ? { set, rollouts } : null;
  });
}

interface Found {
  spanId: string;
  parent: string | null;
  start: bigint;
  end: bigint;
}

/**
 * The rows to read for span `rolloutSpan` of trace `traceId` (a predicate): the subtree under its
 * outermost ancestor within its time, and that ancestor's parent when it is the trace's root;
 * `external` names the parent left out (a `gym.job` that began long before).
 */
async function subtreeOfRollout(store: TraceStore, traceId: string, rolloutSpan: string): Promise<{ where: string; external: Set<string> } | null> {
  const c = store.duck.connection;
  const spans = `read_parquet(${sqlList(store.parts('spans'))})`;
  const within = (from: bigint, to: bigint) => `trace_id = ${traceId} AND start_ns BETWEEN ${from - MARGIN_NS} AND ${to + MARGIN_NS}`;
  const one = async (where: string): Promise<Found | null> => {
    const row = (await c.runAndReadAll(`SELECT span_id, parent_span_id, start_ns, greatest(coalesce(end_ns, start_ns), start_ns) FROM ${spans} WHERE ${where} LIMIT 1`)).getRows()[0];
    return row === undefined ? null : { spanId: String(row[0]), parent: row[1] === null ? null : String(row[1]), start: row[2] as bigint, end: row[3] as bigint };
  };
  const rollout = await one(`trace_id = ${traceId} AND span_id = ${sqlString(rolloutSpan)}`);
  if (rollout === null) return null;
  // up from the rollout while the parent is of its time; a root of that time is read as well
  const near = within(rollout.start, rollout.end);
  let top = rollout;
  let root: Found | null = null;
  for (let depth = 0; top.parent !== null && depth < 256; depth++) {
    const parent = await one(`${near} AND span_id = ${sqlString(top.parent)}`);
    if (parent === null) break;
    if (parent.parent === null) {
      root = parent;
      break;
    }
    top = parent;
  }
  await withWindow(c, spans, within(top.start, top.end), top.spanId);
  const subtree = `(${within(top.start, top.end)} AND span_id IN (SELECT span_id FROM gym_subtree))`;
  return {
    where: root === null ? subtree : `${subtree} OR (${near} AND span_id = ${sqlString(root.spanId)})`,
    external: new Set(top.parent === null || root !== null ? [] : [top.parent]),
  };
}

/** Fills the temporary table `gym_subtree` with the ids of the subtree under `top` among the spans `where` selects. */
async function withWindow(c: DuckDBConnection, spans: string, where: string, top: string): Promise<void> {
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_window AS SELECT span_id, parent_span_id FROM ${spans} WHERE ${where}`);
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_subtree AS WITH RECURSIVE down(span_id, depth) AS (
      SELECT ${sqlString(top)}, 0 UNION ALL SELECT w.span_id, down.depth + 1 FROM down JOIN gym_window w ON w.parent_span_id = down.span_id WHERE down.depth < 256)
    SELECT DISTINCT span_id FROM down`);
}
