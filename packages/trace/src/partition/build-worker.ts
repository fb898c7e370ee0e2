/**
 * The entry of the thread that builds a partition index (`build-in-worker.ts`): runs the build and
 * posts what it wrote, or why it failed.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildPartitions, InputChangedError, setBuildChunkBytes } from './build-partitions.js';
import type { BuildWorkerInput, BuildWorkerOutput } from './build-in-worker.js';

const { files, dir, layout, chunkBytes } = workerData as BuildWorkerInput;
setBuildChunkBytes(chunkBytes);
let output: BuildWorkerOutput;
try {
  output = { build: await buildPartitions(files, dir, layout) };
} catch (err) {
  const e = err as { name?: unknown; message?: unknown; code?: unknown };
  output = { failure: { inputChanged: err instanceof InputChangedError, name: String(e.name ?? 'Error'), message: String(e.message ?? err), code: typeof e.code === 'string' ? e.code : undefined } };
}
parentPort!.postMessage(output);
