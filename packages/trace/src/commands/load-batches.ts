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
import { readIndexMetrics, readPartitionSlices, readSplitRoots } from '../partition/read-partitions.js';
import { expandPaths } from '../read/expand-paths.js';
import { MAX_MALFORMED_EXAMPLES } from '../read/read-stats.js';
import type { ReadStats } from '../read/read-stats.js';
import type { BatchTask } from './batch-tasks.js';
import { runInWorkers, sharePartitions, workerCount } from './batch-workers.js';
import { resolvePaths } from './default-paths.js';
import { describeRead, loadTelemetry } from './load.js';
import type { InputOptions } from './load.js';
import type { CommandOutput } from './output.js';

/**
 * Environment variable: inputs above this many MiB are read through the index, in partitions of a
 * quarter of this size, each handed on in slices of {@link SLICE_SPANS_PER_MIB} spans per MiB of it.
 */
export const BATCH_ENV = 'GYM_TRACE_BATCH_MIB';

/** Default of {@link BATCH_ENV}: an input of span lines this size, read whole, assembles in about 2× its size of memory. */
export const DEFAULT_BATCH_MIB = 64;

/**
 * A partition is analysed in slices of this many spans per MiB of the batch size (4,096 at the
 * default): a slice's spans are garbage once it is analysed, and the young-generation collections
 * copy what is alive when they run. Measured over 2M generated spans, `stats` used 40 % less CPU
 * with slices of about 4,000 spans than with whole 16 MiB partitions.
 */
export const SLICE_SPANS_PER_MIB = 64;

/** One batch: whole rollouts (and whole traces outside rollouts), assembled: a slice of a partition, or a small input read whole. */
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

/** Spans per slice of a partition, from the batch size ({@link SLICE_SPANS_PER_MIB}). */
export function sliceSpanCount(env: NodeJS.ProcessEnv = process.env): number {
  return Math.max(1, Math.round((batchBytes(env) / (1024 * 1024)) * SLICE_SPANS_PER_MIB));
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
    const shares = workers > 1 ? sharePartitions(index.partitionBytes, workers) : [];
    // the task is merged into only once every worker has answered: when one fails (a thread that
    // cannot start, or runs out of memory), the partitions are read here instead
    const answers =
      shares.length > 1
        ? await runInWorkers(index, shares, (onBatch as BatchTask).spec).catch((err: unknown) => {
            out.error(`warning: the trace reader threads failed (${err instanceof Error ? err.message : String(err)}); reading in one thread\n`);
            return null;
          })
        : null;
    let batches = 0;
    if (answers !== null) {
      for (const answer of answers) {
        (onBatch as BatchTask).merge(answer.state);
        addReadStats(stats, answer.stats);
        batches += answer.batches;
      }
    } else {
      const shared = await readSplitRoots(index);
      batches = await readBatches(
        index,
        index.partitionBytes.map((_, p) => p),
        stats,
        shared,
        add,
      );
    }
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

/**
 * Reads partitions `which` of `index` slice by slice, counting spans into `stats`, and hands each
 * slice to `onBatch` assembled; returns the number of slices.
 */
export async function readBatches(index: PartitionIndex, which: readonly number[], stats: ReadStats, shared: ReadonlySet<string>, onBatch: (batch: Batch) => void): Promise<number> {
  const maxSpans = sliceSpanCount();
  let batches = 0;
  for (const p of which)
    batches += await readPartitionSlices(index, p, stats, shared, maxSpans, (spans) => {
      const set = assembleTraces(spans, { externalParents: shared });
      spans.length = 0;
      onBatch({ set, rollouts: findRollouts(set), shared });
    });
  return batches;
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
