/**
 * The critical-path time split of every rollout (what `stats` sums under its table), kept in the
 * store as a derived table (`derived-results.ts`): one row per rollout in the order the batched
 * read meets them, in ms. The first command that needs it walks every rollout's tree (the whole
 * run read into JavaScript) and writes it; the next ones read its rows and add them up in the
 * same order, so the sums are the same to the last bit.
 * @module
 */
import { AttributionTotals } from '../analyze/attribution-summary.js';
import { splitRolloutTime } from '../analyze/attribution.js';
import { TIME_CATEGORIES } from '../analyze/categorize.js';
import { SPLIT_AFTER, SPLIT_BEFORE, SPLIT_WALL, walkTimeSplit } from '../analyze/time-split.js';
import { outermostOf } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import { derivedExists, derivedFile, publishDerived } from './derived-results.js';
import type { DuckDBAppender } from '@duckdb/node-api';
import { sqlString } from './duck.js';
import type { TraceStore } from './open-store.js';

/** Columns after `ord`, `rollout_id`, `trace_id`: ms per category (the split's slots, in order), then network before/after and wall. */
const MS_COLUMNS = [...TIME_CATEGORIES.map((c) => `${c}_ms`), 'network_before_ms', 'network_after_ms', 'wall_ms'];

/** Slots of one rollout's row, in ms: the categories, then network before and after, then wall (as `walkTimeSplit`'s). */
const SLOTS = SPLIT_WALL + 1;

/**
 * The time split of every rollout of `store`, summed: from its derived table, or computed by
 * `compute` (which hands over every batch's rollouts, in order, to the function it is given) and
 * then kept; `options`: what else the rows depend on (the shape of the read). Returns whether the table was read (`cached`).
 */
export async function rolloutTimeSplit(
  store: TraceStore,
  options: unknown,
  compute: (onRollouts: (rollouts: readonly Rollout[]) => void) => Promise<void>,
): Promise<{ totals: AttributionTotals; cached: boolean }> {
  const where = await derivedFile(store, 'rollout-time-split', options, 'parquet');
  const totals = new AttributionTotals();
  if (await derivedExists(where)) {
    await replay(store, where.file, totals);
    return { totals, cached: true };
  }
  // the rows go to DuckDB as they are made, so a run of millions of rollouts is held within its
  // memory limit (spilled beyond it), not in JavaScript; on a connection of their own, beside the
  // read that streams the spans on the store's
  const c = await store.duck.connect();
  try {
    await c.run(`CREATE TEMP TABLE gym_split (ord BIGINT, rollout_id VARCHAR, trace_id VARCHAR, ${MS_COLUMNS.map((m) => `${m} DOUBLE`).join(', ')})`);
    const rows = new SplitRows(await c.createAppender('gym_split'));
    await compute((rollouts) => {
      for (const r of rollouts) totals.addSplitMs(rows.add(r));
    });
    rows.close();
    await publishDerived(where, async (tmp) => void (await c.run(`COPY gym_split TO ${sqlString(tmp)} (FORMAT parquet)`)));
  } finally {
    // the temporary table goes with its connection
    c.closeSync();
  }
  return { totals, cached: false };
}

/** Each rollout's split in ms, appended row after row to the derived table's temporary twin. */
class SplitRows {
  readonly #appender: DuckDBAppender;
  readonly #row = new Float64Array(SLOTS);
  #count = 0n;

  constructor(appender: DuckDBAppender) {
    this.#appender = appender;
  }

  /** Appends `r`'s split; returns its row (reused: valid until the next call). */
  add(r: Rollout): Float64Array {
    const row = this.#row;
    const sums = walkTimeSplit(outermostOf(r), r.node.span.service);
    if (sums !== null) for (let i = 0; i < SLOTS; i++) row[i] = sums[i]! / 1e6;
    else {
      // a rollout longer than 2^53 ns: the attribution's bigint path
      const a = splitRolloutTime(r);
      TIME_CATEGORIES.forEach((c, i) => (row[i] = a.categories[c]));
      row[SPLIT_BEFORE] = a.network.beforeMs;
      row[SPLIT_AFTER] = a.network.afterMs;
      row[SPLIT_WALL] = a.wallMs;
    }
    const appender = this.#appender;
    appender.appendBigInt(this.#count++);
    appender.appendVarchar(r.rolloutId);
    appender.appendVarchar(r.traceId);
    for (let i = 0; i < SLOTS; i++) appender.appendDouble(row[i]!);
    appender.endRow();
    return row;
  }

  close(): void {
    this.#appender.closeSync();
  }
}

async function replay(store: TraceStore, file: string, totals: AttributionTotals): Promise<void> {
  const result = await store.duck.connection.stream(`SELECT ${MS_COLUMNS.join(', ')} FROM read_parquet(${sqlString(file)}) ORDER BY ord`);
  const row = new Float64Array(SLOTS);
  for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const columns = Array.from({ length: SLOTS }, (_, i) => chunk.getColumnValues(i) as number[]);
    for (let r = 0; r < chunk.rowCount; r++) {
      for (let i = 0; i < SLOTS; i++) row[i] = columns[i]![r]!;
      totals.addSplitMs(row);
    }
  }
}
