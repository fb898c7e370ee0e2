/**
 * The part of a large run `show --rollout <id>` needs: the rollout's trace, or, in a trace too
 * large to read whole (a run under `gym.job`), the subtree under its root that holds the rollout
 * and the root itself — found by SQL over the store, without reading the rest of the run.
 * @module
 */
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findRollouts } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { ATTR } from '../span-record.js';
import { sqlString } from '../store/duck.js';
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
 * The part of a large input around rollout `id`, or null when the input is small enough to read
 * whole or the id is not a rollout id there (then the caller reads the whole input).
 */
export async function loadRolloutPartition(options: InputOptions, id: string, out: CommandOutput): Promise<RolloutPartition | null> {
  const paths = await resolvePaths(options.paths, options.cwd, out);
  return withStore(paths, out, async (store) => {
    if (store.stats.bytes <= batchBytes()) return null;
    const c = store.duck.connection;
    const spans = `read_parquet([${store.parts('spans').map(sqlString).join(', ')}])`;
    const found = (
      await c.runAndReadAll(`SELECT trace_id, span_id FROM ${spans} WHERE name = 'gym.rollout' AND json_extract_string(attributes, '$."${ATTR.ROLLOUT_ID}"') = ${sqlString(id)} LIMIT 1`)
    ).getRows()[0];
    if (found === undefined) return null;
    const traceId = sqlString(String(found[0]));
    const size = Number((await c.runAndReadAll(`SELECT count(*) FROM ${spans} WHERE trace_id = ${traceId}`)).getRows()[0]![0]);
    let where = `trace_id = ${traceId}`;
    let roots: Set<string> | null = null;
    if (size > largeTraceSpans()) {
      // up from the rollout to the child of a root, then down from there, within its trace
      await c.run(`CREATE OR REPLACE TEMP TABLE gym_trace_ids AS SELECT span_id, parent_span_id FROM ${spans} WHERE trace_id = ${traceId}`);
      const top = (
        await c.runAndReadAll(`WITH RECURSIVE up(span_id, parent_span_id, depth) AS (
            SELECT span_id, parent_span_id, 0 FROM gym_trace_ids WHERE span_id = ${sqlString(String(found[1]))}
            UNION ALL SELECT i.span_id, i.parent_span_id, up.depth + 1 FROM up JOIN gym_trace_ids i ON i.span_id = up.parent_span_id WHERE up.depth < 256)
          SELECT span_id FROM up WHERE parent_span_id IN (SELECT span_id FROM gym_trace_ids WHERE parent_span_id IS NULL) LIMIT 1`)
      ).getRows()[0];
      if (top !== undefined) {
        await c.run(`CREATE OR REPLACE TEMP TABLE gym_subtree AS WITH RECURSIVE down(span_id, depth) AS (
            SELECT ${sqlString(String(top[0]))}, 0 UNION ALL SELECT i.span_id, down.depth + 1 FROM down JOIN gym_trace_ids i ON i.parent_span_id = down.span_id WHERE down.depth < 256)
          SELECT DISTINCT span_id FROM down UNION SELECT span_id FROM gym_trace_ids WHERE parent_span_id IS NULL`);
        where += ' AND span_id IN (SELECT span_id FROM gym_subtree)';
        roots = new Set((await c.runAndReadAll('SELECT span_id FROM gym_trace_ids WHERE parent_span_id IS NULL')).getRows().map((r) => String(r[0])));
      }
    }
    const set = assembleTraces(await readAllSpans(store, await spanRows(store), where), { externalParents: roots });
    const rollouts = findRollouts(set);
    return rollouts.some((r) => r.rolloutId === id) ? { set, rollouts } : null;
  });
}
