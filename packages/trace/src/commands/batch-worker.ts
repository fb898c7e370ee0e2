/**
 * The entry of a worker thread of `batch-workers.ts`: reads its partitions of the index slice by
 * slice, adds each slice to its task, and posts the task's sums and its read counters back.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readSplitRoots } from '../partition/read-partitions.js';
import { emptyReadStats } from '../read/read-stats.js';
import { makeBatchTask } from './batch-tasks.js';
import type { WorkerInput, WorkerOutput } from './batch-workers.js';
import { readBatches } from './load-batches.js';

const { index, partitions, spec } = workerData as WorkerInput;
const task = makeBatchTask(spec);
const stats = emptyReadStats();
const shared = await readSplitRoots(index);
const batches = await readBatches(index, partitions, stats, shared, (batch) => task.add(batch));
const output: WorkerOutput = { state: task.state(), stats, batches };
// the durations (8 bytes a span) move to the main thread instead of being copied there
parentPort!.postMessage(output, typedArrayBuffers(output.state));

function typedArrayBuffers(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const v of value) if (v !== null && typeof v === 'object') typedArrayBuffers(v, found);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) if (v !== null && typeof v === 'object') typedArrayBuffers(v, found);
  }
  return [...found];
}
