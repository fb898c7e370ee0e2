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
  const rows = new SplitRows();
  await compute((rollouts) => {
    for (const r of rollouts) totals.addSplitMs(rows.add(r));
  });
  await publishDerived(where, (tmp) => write(store, tmp, rows));
  return { totals, cached: false };
}

/** Each rollout's split in ms, row after row (one flat list of {@link SLOTS} per rollout). */
class SplitRows {
  readonly ids: string[] = [];
  readonly traces: string[] = [];
  #ms = new Float64Array(SLOTS * 1024);
  readonly #row = new Float64Array(SLOTS);

  get count(): number {
    return this.ids.length;
  }

  /** Adds `r`'s split; returns its row (reused: valid until the next call). */
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
    const at = this.ids.length * SLOTS;
    if (at + SLOTS > this.#ms.length) {
      const grown = new Float64Array(this.#ms.length * 2);
      grown.set(this.#ms);
      this.#ms = grown;
    }
    this.#ms.set(row, at);
    this.ids.push(r.rolloutId);
    this.traces.push(r.traceId);
    return row;
  }

  ms(rollout: number, slot: number): number {
    return this.#ms[rollout * SLOTS + slot]!;
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

async function write(store: TraceStore, file: string, rows: SplitRows): Promise<void> {
  const c = store.duck.connection;
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_split (ord BIGINT, rollout_id VARCHAR, trace_id VARCHAR, ${MS_COLUMNS.map((m) => `${m} DOUBLE`).join(', ')})`);
  try {
    const appender = await c.createAppender('gym_split');
    for (let r = 0; r < rows.count; r++) {
      appender.appendBigInt(BigInt(r));
      appender.appendVarchar(rows.ids[r]!);
      appender.appendVarchar(rows.traces[r]!);
      for (let i = 0; i < SLOTS; i++) appender.appendDouble(rows.ms(r, i));
      appender.endRow();
    }
    appender.closeSync();
    await c.run(`COPY gym_split TO ${sqlString(file)} (FORMAT parquet)`);
  } finally {
    await c.run('DROP TABLE IF EXISTS gym_split');
  }
}
