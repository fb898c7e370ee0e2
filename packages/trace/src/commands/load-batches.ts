/**
 * The read → assemble stage for commands that aggregate (`stats`, `anomalies`, `why --all`): a
 * small input is read whole, as one batch; a large one goes through the partition index beside
 * the logs and is handed over in batches of whole rollouts, so memory stays bounded whatever the
 * size of the run.
 * @module
 */
import { buildSaturation } from '../analyze/saturation.js';
import type { SaturationData } from '../analyze/saturation.js';
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findRollouts } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { closeIndex, LARGE_TRACE_SPANS, openIndex, PARTITION_TARGET_BYTES } from '../partition/partition-index.js';
import type { PartitionIndex } from '../partition/partition-index.js';
import { readIndexMetrics, readPartitions, readSplitRoots } from '../partition/read-partitions.js';
import { expandPaths } from '../read/expand-paths.js';
import { MAX_MALFORMED_EXAMPLES } from '../read/read-stats.js';
import type { ReadStats } from '../read/read-stats.js';
import type { SpanRecord } from '../span-record.js';
import type { BatchTask } from './batch-tasks.js';
import { runInWorkers, shareBatches, workerCount } from './batch-workers.js';
import { resolvePaths } from './default-paths.js';
import { describeRead, loadTelemetry } from './load.js';
import type { InputOptions } from './load.js';
import type { CommandOutput } from './output.js';

/** Environment variable: inputs above this many MiB are read through the index, in batches of a quarter of this size ({@link READ_BATCH_FRACTION}). */
export const BATCH_ENV = 'GYM_TRACE_BATCH_MIB';

/** Default of {@link BATCH_ENV}: a batch of span lines this size assembles in about 2× its size of memory. */
export const DEFAULT_BATCH_MIB = 64;

/**
 * Spans are read and analysed in batches of this fraction of the batch size (about one partition
 * at the default): a batch's spans are garbage once it is analysed, and the garbage collector's
 * work grows with what is alive when it runs (measured at 1M spans: 15-20 % less CPU than batches
 * of the whole size, and a lower peak).
 */
export const READ_BATCH_FRACTION = 4;

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

/** What the batched read saw. */
export interface BatchedRead {
  paths: string[];
  stats: ReadStats;
  saturation: SaturationData;
  /** Number of batches handed over (1 for an input read whole). */
  batches: number;
  /** Worker threads that read them (1: the calling thread). */
  workers: number;
}

/** The batch size in bytes: `GYM_TRACE_BATCH_MIB`, else {@link DEFAULT_BATCH_MIB}. */
export function batchBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mib = Number(env[BATCH_ENV]);
  return (Number.isFinite(mib) && mib > 0 ? mib : DEFAULT_BATCH_MIB) * 1024 * 1024;
}

/**
 * Hands each batch of the input to `onBatch` (a function, called in order in this thread) or adds
 * it to `task`; returns the counters of the whole read. A task over a large input is run in
 * worker threads (`GYM_TRACE_WORKERS`, default one per core), each on a share of the batches,
 * and their sums are merged into `task` in batch order.
 * @throws TraceUserError `GYM_TRACE_PATH_NOT_FOUND`, `GYM_TRACE_NO_PATHS`, `GYM_TRACE_NO_SPANS`.
 */
export async function readInBatches(options: InputOptions, out: CommandOutput, onBatch: ((batch: Batch) => void) | BatchTask): Promise<BatchedRead> {
  const add = typeof onBatch === 'function' ? onBatch : (batch: Batch) => onBatch.add(batch);
  const paths = await resolvePaths(options.paths, options.cwd);
  const files = await expandPaths(paths);
  const limit = batchBytes();
  if (files.reduce((n, f) => n + f.bytes, 0) <= limit) {
    const whole = await loadTelemetry({ ...options, paths }, out);
    add({ set: whole.set, rollouts: whole.rollouts, shared: null });
    return { paths, stats: whole.stats, saturation: whole.saturation, batches: 1, workers: 1 };
  }
  const index = await openLogged(files, paths[0]!, out);
  try {
    const stats: ReadStats = { ...index.stats, malformedExamples: [...index.stats.malformedExamples], formats: { ...index.stats.formats } };
    const saturation = buildSaturation(await readIndexMetrics(index));
    const workers = typeof onBatch === 'function' ? 1 : workerCount();
    // each worker holds one batch at a time: together they hold about one batch of the set size
    // (a task whose answer depends on the cuts gets the cuts of one thread)
    const cutFor = typeof onBatch !== 'function' && onBatch.fixedBatches === true ? 1 : workers;
    let groups = groupPartitions(index.partitionBytes, Math.ceil(limit / READ_BATCH_FRACTION / cutFor));
    const shares = workers > 1 ? shareBatches(groups, index.partitionBytes, workers) : [];
    // the task is merged into only once every worker has answered: when one fails (a thread that
    // cannot start, or runs out of memory), the batches are read here instead
    const answers =
      shares.length > 1
        ? await runInWorkers(index, shares, (onBatch as BatchTask).spec).catch((err: unknown) => {
            out.error(`warning: the trace reader threads failed (${err instanceof Error ? err.message : String(err)}); reading in one thread\n`);
            return null;
          })
        : null;
    if (answers !== null) {
      for (const { state, stats: read } of answers) {
        (onBatch as BatchTask).merge(state);
        addReadStats(stats, read);
      }
    } else {
      groups = groupPartitions(index.partitionBytes, Math.ceil(limit / READ_BATCH_FRACTION));
      const shared = await readSplitRoots(index);
      for (const which of groups) add(await readBatch(index, which, stats, shared));
    }
    const batches = groups.length;
    if (stats.spans === 0)
      throw new TraceUserError(
        TRACE_ERROR_CODES.noSpans,
        `No spans found in ${paths.join(', ')}: ${describeRead(stats)}. Telemetry must be on with the console or OTLP/JSON file exporter (NEMO_GYM_OTEL_ENABLED=1).`,
      );
    if (stats.malformedLines > 0) out.error(`warning: ${describeRead(stats)}\n`);
    return { paths, stats, saturation, batches, workers: answers === null ? 1 : answers.length };
  } finally {
    await closeIndex(index);
  }
}

/** Reads and assembles the partitions `which` of `index`, counting spans into `stats`. */
export async function readBatch(index: PartitionIndex, which: readonly number[], stats: ReadStats, shared: ReadonlySet<string>): Promise<Batch> {
  const spans: SpanRecord[] = [];
  await readPartitions(index, which, stats, (s) => void spans.push(s));
  const set = assembleTraces(spans, { externalParents: shared });
  spans.length = 0;
  return { set, rollouts: findRollouts(set), shared };
}

// What a worker read: its spans and malformed records (the other counters are the index's).
function addReadStats(into: ReadStats, read: ReadStats): void {
  into.spans += read.spans;
  into.malformedLines += read.malformedLines;
  for (const e of read.malformedExamples) if (into.malformedExamples.length < MAX_MALFORMED_EXAMPLES) into.malformedExamples.push(e);
  into.formats.console += read.formats.console;
  into.formats.python += read.formats.python;
  into.formats.otlp += read.formats.otlp;
}

/** Opens (or builds, saying so on a terminal) the partition index of `files`. */
export async function openLogged(files: Parameters<typeof openIndex>[0], anchor: string, out: CommandOutput): Promise<PartitionIndex> {
  const mib = (files.reduce((n, f) => n + f.bytes, 0) / 1048576).toFixed(0);
  const started = Date.now();
  // A batch holds several partitions, and a trace much smaller than a batch is never split (at
  // about 1 KiB a span): a small batch size (tests) still exercises both.
  const batch = batchBytes();
  const index = await openIndex(files, anchor, {
    partitionTargetBytes: Math.min(PARTITION_TARGET_BYTES, Math.max(1, Math.floor(batch / 4))),
    largeTraceSpans: Math.min(LARGE_TRACE_SPANS, Math.floor(batch / 8 / 1024)),
    // the build's memory (every span's ids) goes with its thread, before the batches are read;
    // `GYM_TRACE_WORKERS=1` keeps everything in this thread
    buildInThread: workerCount() > 1,
  });
  if (index.built && out.errorIsTTY === true)
    out.error(`indexed ${mib} MiB of telemetry in ${((Date.now() - started) / 1000).toFixed(1)}s (kept in ${index.temporary ? 'a temporary directory' : index.dir}; rebuilt when the logs change)\n`);
  return index;
}

/** Consecutive partitions grouped so that each group holds at most `limit` bytes (at least one partition). */
export function groupPartitions(partitionBytes: readonly number[], limit: number): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  let size = 0;
  partitionBytes.forEach((bytes, i) => {
    if (current.length > 0 && size + bytes > limit) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(i);
    size += bytes;
  });
  if (current.length > 0) groups.push(current);
  return groups;
}
