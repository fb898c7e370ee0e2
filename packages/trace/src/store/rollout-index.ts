/**
 * A small index of each chunk: its `gym.rollout` spans by rollout id, written beside the chunk's
 * spans once they are converted, so that `show --rollout <id>` finds its rollout without reading
 * every span's attributes (at 20M spans, most of a second).
 * @module
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ATTR, SPAN } from '../span-record.js';
import { sqlString } from './duck.js';
import { partPath } from './store-manifest.js';
import { castColumns } from './store-schema.js';
import { attr } from './store-views.js';

/** Writes the rollout index of chunk `chunk` of the store in `dir` from its spans part. */
export async function writeRolloutIndex(c: DuckDBConnection, dir: string, chunk: number): Promise<void> {
  await c.run(`COPY (SELECT ${castColumns('rollouts')} FROM (
      SELECT ${attr(ATTR.ROLLOUT_ID)} AS rollout_id, trace_id, span_id, start_ns
      FROM read_parquet(${sqlString(partPath(dir, 'spans', chunk))}) WHERE name = ${sqlString(SPAN.ROLLOUT)}))
    TO ${sqlString(partPath(dir, 'rollouts', chunk))} (FORMAT parquet, COMPRESSION zstd)`);
}
