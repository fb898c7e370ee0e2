/**
 * Runs a {@link BatchTask} over the partitions of a partition index in worker threads: each worker
 * reads, assembles and analyses a contiguous share of the partitions, slice by slice, and hands
 * back its sums; the caller merges them in order. The slices are independent, so on N cores this
 * is up to N times faster, with one slice alive per worker.
 * @module
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PartitionIndex } from '../partition/partition-index.js';
import type { ReadStats } from '../read/read-stats.js';
import { startWorker } from '../worker-start.js';
import type { BatchTaskSpec } from './batch-tasks.js';

/** Environment variable: worker threads reading a large run (default: one per core; 1 reads in the main thread). */
export const WORKERS_ENV = 'GYM_TRACE_WORKERS';

/** What a worker is given. */
export interface WorkerInput {
  index: PartitionIndex;
  /** Its partitions, in order. */
  partitions: number[];
  spec: BatchTaskSpec;
}

/** What a worker hands back. */
export interface WorkerOutput {
  state: unknown;
  /** Spans and malformed records it read (the other counters are the index's). */
  stats: ReadStats;
  /** Batches (slices) it analysed. */
  batches: number;
}

let failure: string | undefined;

/**
 * For tests: every worker started from now on throws `message` as it starts (`undefined`: they run
 * again). A worker's own failure, such as running out of memory, takes the same path; a heap limit
 * cannot stand in for it in tests, since a tiny one aborts the whole process on some Node versions.
 */
export function failWorkersForTests(message?: string): void {
  failure = message;
}

/** Worker threads to use: `GYM_TRACE_WORKERS`, else one per core. */
export function workerCount(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env[WORKERS_ENV]);
  return Number.isInteger(n) && n >= 1 ? n : availableParallelism();
}

/**
 * Splits the partitions (their sizes in `partitionBytes`) into at most `workers` runs of
 * consecutive partitions of about equal bytes (the merge then sees the slices in their order).
 */
export function sharePartitions(partitionBytes: readonly number[], workers: number): number[][] {
  const total = partitionBytes.reduce((n, b) => n + b, 0);
  const shares: number[][] = [];
  let current: number[] = [];
  let done = 0;
  partitionBytes.forEach((bytes, p) => {
    current.push(p);
    done += bytes;
    // close a share once it reaches its part of the total (the last share takes the rest)
    if (shares.length < workers - 1 && done >= (total * (shares.length + 1)) / workers) {
      shares.push(current);
      current = [];
    }
  });
  if (current.length > 0) shares.push(current);
  return shares;
}

/** Runs `spec` over each share in a worker of its own; the outputs come back in share order. */
export async function runInWorkers(index: PartitionIndex, shares: readonly number[][], spec: BatchTaskSpec): Promise<WorkerOutput[]> {
  const workers: Worker[] = [];
  try {
    return await Promise.all(
      shares.map((partitions) => {
        const input: WorkerInput = { index, partitions, spec };
        const worker = startReader(input);
        workers.push(worker);
        return new Promise<WorkerOutput>((resolve, reject) => {
          worker.once('message', (m: WorkerOutput) => resolve(m));
          worker.once('error', reject);
          worker.once('exit', (code) => reject(new Error(`a trace reader thread exited with code ${code} before it answered`)));
        });
      }),
    );
  } finally {
    // one failed: the others' work is of no use
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

function startReader(workerData: WorkerInput): Worker {
  if (failure !== undefined) return new Worker(`throw new Error(${JSON.stringify(failure)})`, { eval: true, workerData });
  return startWorker(import.meta.url, 'batch-worker', workerData);
}
