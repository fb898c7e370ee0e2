/**
 * The critical-path time split of every rollout (what `stats` sums under its table), kept in the
 * store as a derived table: `derived/rollout-time-split-<inputs>-<parts>.parquet`, one row per
 * rollout in the order the batched read meets them. The first command that needs it walks every
 * rollout's tree (the whole run read into JavaScript) and writes it; the next ones read its rows
 * and add them up in the same order, so the sums are the same to the last bit. It is named after
 * the input's files and their parts: once a file grows (new parts) the name differs, and the old
 * table of the same input is removed.
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AttributionTotals } from '../analyze/attribution-summary.js';
import { splitRolloutTime } from '../analyze/attribution.js';
import { TIME_CATEGORIES } from '../analyze/categorize.js';
import { SPLIT_AFTER, SPLIT_BEFORE, SPLIT_WALL, walkTimeSplit } from '../analyze/time-split.js';
import { outermostOf } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import { sqlString } from './duck.js';
import type { TraceStore } from './open-store.js';

/** Directory of derived tables in the store. */
export const DERIVED_DIR = 'derived';

/** Bumped when the table's columns or the split's definition change: older tables are not read. */
const SPLIT_VERSION = 1;

const TABLE = 'rollout-time-split';

/** Columns after `ord`, `rollout_id`, `trace_id`: ms per category (the split's slots, in order), then network before/after and wall. */
const MS_COLUMNS = [...TIME_CATEGORIES.map((c) => `${c}_ms`), 'network_before_ms', 'network_after_ms', 'wall_ms'];

/** Slots of one rollout's row, in ms: the categories, then network before and after, then wall (as `walkTimeSplit`'s). */
const SLOTS = SPLIT_WALL + 1;

/**
 * The time split of every rollout of `store`, summed: from its derived table, or computed by
 * `compute` (which hands over every batch's rollouts, in order, to the function it is given) and
 * then kept. Returns whether the table was read (`cached`).
 */
export async function rolloutTimeSplit(store: TraceStore, compute: (onRollouts: (rollouts: readonly Rollout[]) => void) => Promise<void>): Promise<{ totals: AttributionTotals; cached: boolean }> {
  const { inputs, file } = tableFile(store);
  const totals = new AttributionTotals();
  if (await exists(file)) {
    await replay(store, file, totals);
    return { totals, cached: true };
  }
  const rows = new SplitRows();
  await compute((rollouts) => {
    for (const r of rollouts) totals.addSplitMs(rows.add(r));
  });
  // a store that cannot take the table answers all the same, and computes it again next time
  await write(store, inputs, file, rows).catch(() => undefined);
  return { totals, cached: false };
}

/** The table's file for the store's input and parts, and the prefix the input's tables share. */
function tableFile(store: TraceStore): { inputs: string; file: string } {
  const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 16);
  const inputs = `${TABLE}-${hash([SPLIT_VERSION, store.files.map((f) => f.path)])}`;
  const parts = hash(store.files.map((f) => [f.offset, f.chunks.map((c) => [c.n, c.from, c.to, c.bytes.spans])]));
  return { inputs, file: join(store.dir, DERIVED_DIR, `${inputs}-${parts}.parquet`) };
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

async function write(store: TraceStore, inputs: string, file: string, rows: SplitRows): Promise<void> {
  const c = store.duck.connection;
  const dir = join(store.dir, DERIVED_DIR);
  await mkdir(dir, { recursive: true });
  await c.run(`CREATE OR REPLACE TEMP TABLE gym_split (ord BIGINT, rollout_id VARCHAR, trace_id VARCHAR, ${MS_COLUMNS.map((m) => `${m} DOUBLE`).join(', ')})`);
  const tmp = `${file}.${process.pid}.tmp`;
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
    await c.run(`COPY gym_split TO ${sqlString(tmp)} (FORMAT parquet)`);
    // published whole: a command reading it meanwhile sees the old name or the new file
    await rename(tmp, file);
    for (const name of await readdir(dir)) if (name.startsWith(`${inputs}-`) && join(dir, name) !== file && !name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
  } finally {
    await rm(tmp, { force: true });
    await c.run('DROP TABLE IF EXISTS gym_split');
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
