/**
 * Builds a partition index in a thread of its own. The build holds every span's ids at once (the
 * largest memory of any command over a big run); in a thread, all of it goes when the thread ends,
 * instead of staying in the heap of the command that then reads the index. Measured on 20M spans:
 * BENCHMARKS.md, `trace-read`.
 * @module
 */
import { buildChunkBytes, InputChangedError } from './build-partitions.js';
import type { PartitionBuild, PartitionLayout } from './build-partitions.js';
import type { InputFile } from '../read/expand-paths.js';
import { startWorker } from '../worker-start.js';

/** What the build thread is given. */
export interface BuildWorkerInput {
  files: readonly InputFile[];
  dir: string;
  layout: PartitionLayout;
  /** The calling thread's read size (`setBuildChunkBytes`). */
  chunkBytes: number;
}

/** What it hands back: the build, or why it failed. */
export type BuildWorkerOutput = { build: PartitionBuild } | { failure: { inputChanged: boolean; name: string; message: string; code: string | undefined } };

/** `buildPartitions` in a worker thread; resolves once the thread has ended. */
export function buildPartitionsInWorker(files: readonly InputFile[], dir: string, layout: PartitionLayout): Promise<PartitionBuild> {
  const input: BuildWorkerInput = { files, dir, layout, chunkBytes: buildChunkBytes() };
  const worker = startWorker(import.meta.url, 'build-worker', input);
  let output: BuildWorkerOutput | undefined;
  let error: Error | undefined;
  worker.once('message', (m: BuildWorkerOutput) => (output = m));
  worker.once('error', (err) => (error = err));
  return new Promise((resolve, reject) => {
    // answered on exit, so that the thread's memory is gone before the caller reads the index
    worker.once('exit', (code) => {
      if (output !== undefined && 'build' in output) return resolve(output.build);
      if (output !== undefined) {
        const f = output.failure;
        return reject(f.inputChanged ? new InputChangedError() : Object.assign(new Error(f.message), { name: f.name, code: f.code }));
      }
      reject(error ?? new Error(`the trace index thread exited with code ${code} before it answered`));
    });
  });
}
