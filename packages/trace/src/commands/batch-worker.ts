/**
 * The entry of a worker thread of `batch-workers.ts`: reads its batches of the index, adds each
 * to its task, and posts the task's sums and its read counters back.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readSplitRoots } from '../partition/read-partitions.js';
import { emptyReadStats } from '../read/read-stats.js';
import { makeBatchTask } from './batch-tasks.js';
import type { WorkerInput, WorkerOutput } from './batch-workers.js';
import { readBatch } from './load-batches.js';

const { index, batches, spec } = workerData as WorkerInput;
const task = makeBatchTask(spec);
const stats = emptyReadStats();
const shared = await readSplitRoots(index);
for (const which of batches) task.add(await readBatch(index, which, stats, shared));
const output: WorkerOutput = { state: task.state(), stats };
parentPort!.postMessage(output);
