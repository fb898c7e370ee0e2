/**
 * Starting a worker thread of this package. From the TypeScript sources (the `gym` CLI, tests) the
 * thread needs tsx's loader registered in it before it imports its entry; from built JavaScript
 * it starts directly.
 * @module
 */
import { Worker } from 'node:worker_threads';

/** Starts the worker whose entry module is `./<name>` beside `from` (an `import.meta.url`). */
export function startWorker(from: string, name: string, workerData: unknown): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, from), { workerData });
  const entry = new URL(`./${name}.ts`, from).href;
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, workerData });
}
