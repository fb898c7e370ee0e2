/**
 * `num_workers > 1`: the process the orchestrator spawned becomes a `node:cluster` primary that forks
 * N workers of the same server. Each worker runs `server-main.ts` as a single server (its own
 * telemetry, with `service.instance.id=<instance>-w<k>`) and listens on the instance's port, which
 * the cluster shares. The primary serves nothing and restarts nothing: a worker that dies on its own
 * is logged, the other workers are stopped and the primary exits 1, so the orchestrator sees the
 * server die as it does for a single process. SIGTERM/SIGINT (or the orchestrator's IPC channel
 * closing) stops every worker gracefully, each flushing its telemetry; the primary exits once all
 * are gone. Workers' stdout/stderr are relayed line by line, so lines of two workers never mix.
 * Workers share one session-cookie secret; anything else a server keeps in memory is per worker.
 * @module
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { Worker } from 'node:cluster';
import type { Readable, Writable } from 'node:stream';
import { pino } from 'pino';
import type { ConfigMap } from '../config/types.js';
import { isLossesMessage } from '../telemetry/loss-report.js';

/** Set by the primary in each worker's environment: the worker's index, `0 … num_workers-1`. */
export const WORKER_INDEX_ENV = 'GYM_SERVER_WORKER_INDEX';
/**
 * Set by the primary in each worker's environment: one random session-cookie secret for all workers,
 * so a cookie set by one worker is valid on the others (the session id, and what is keyed by it,
 * such as a model server's replica choice, stays the same whichever worker a request reaches).
 */
export const WORKER_SESSION_SECRET_ENV = 'GYM_SERVER_SESSION_SECRET';
/** How long the primary waits for workers to stop gracefully before SIGKILL (under the orchestrator's 10 s). */
export const WORKER_STOP_GRACE_MS = 8_000;
/** `type` of the IPC message a primary sends its orchestrator once every worker listens. */
export const WORKERS_MESSAGE_TYPE = 'gym.server.workers';

/** One worker process of a server instance. */
export interface ServerWorker {
  /** `0 … num_workers-1`. */
  index: number;
  pid: number;
}

/** The IPC message a primary sends its orchestrator once every worker listens. */
export interface WorkersMessage {
  type: typeof WORKERS_MESSAGE_TYPE;
  workers: ServerWorker[];
}

/** `num_workers` of a server block: a positive integer (or digit string); absent, null or invalid → 1. */
export function numWorkersOf(config: ConfigMap): number {
  const raw = config['num_workers'];
  const n = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  return typeof n === 'number' && Number.isInteger(n) && n > 1 ? n : 1;
}

/** True for a {@link WorkersMessage}. */
export function isWorkersMessage(message: unknown): message is WorkersMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === WORKERS_MESSAGE_TYPE && Array.isArray((message as { workers?: unknown }).workers);
}

/** The `service.instance.id` of worker `index` of `instanceName`. */
export function workerInstanceId(instanceName: string, index: number): string {
  return `${instanceName}-w${index}`;
}

/** `OTEL_RESOURCE_ATTRIBUTES` for a worker: the inherited value with `service.instance.id` appended (the last duplicate wins). */
export function workerResourceAttributes(inherited: string | undefined, instanceId: string): string {
  const own = `service.instance.id=${encodeURIComponent(instanceId)}`;
  return inherited !== undefined && inherited.trim() !== '' ? `${inherited},${own}` : own;
}

/** This process's worker index when it is a cluster worker of a server, else `undefined`. */
export function workerIndex(env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (!cluster.isWorker) return undefined;
  const index = Number(env[WORKER_INDEX_ENV]);
  return Number.isInteger(index) && index >= 0 ? index : undefined;
}

/** Takes the shared session secret out of this worker's environment (children it starts do not inherit it). */
export function takeWorkerSessionSecret(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const secret = env[WORKER_SESSION_SECRET_ENV];
  delete env[WORKER_SESSION_SECRET_ENV];
  return secret === undefined || secret === '' ? undefined : secret;
}

/** True in the process the orchestrator spawned (not a cluster worker). */
export function isClusterPrimary(): boolean {
  return cluster.isPrimary;
}

/** Relays `source` to `target` in whole lines (a trailing partial line is completed at the end). */
function relayLines(source: Readable, target: Writable): Promise<void> {
  let partial: Buffer | undefined;
  source.on('data', (chunk: Buffer) => {
    const text = partial === undefined ? chunk : Buffer.concat([partial, chunk]);
    const end = text.lastIndexOf(0x0a);
    if (end === -1) {
      partial = text;
      return;
    }
    partial = end + 1 < text.length ? Buffer.from(text.subarray(end + 1)) : undefined;
    if (!target.write(text.subarray(0, end + 1))) {
      source.pause();
      target.once('drain', () => source.resume());
    }
  });
  return new Promise((resolve) => {
    source.once('close', () => {
      if (partial !== undefined) target.write(Buffer.concat([partial, Buffer.from('\n')]));
      resolve();
    });
  });
}

/** Options of {@link runServerPrimary}. */
export interface ServerPrimaryOptions {
  /** The server instance name. */
  name: string;
  numWorkers: number;
}

/**
 * Forks the workers and supervises them until they are all gone, then exits the process: 0 after a
 * requested stop in which every worker exited cleanly, 1 when a worker died on its own or had to be
 * killed.
 */
export function runServerPrimary({ name, numWorkers }: ServerPrimaryOptions): void {
  const log = pino({ base: { server: name, pid: process.pid, role: 'primary' } }, process.stdout);
  // exec, args and execArgv (tsx, GYM_SERVER_NODE_FLAGS) default to this process's own
  cluster.setupPrimary({ silent: true });
  const listening = new Set<number>();
  const live = new Map<number, Worker>();
  const closed: Array<Promise<void>> = [];
  let stopping = false;
  let failed = false;
  let killTimer: NodeJS.Timeout | undefined;
  const sessionSecret = randomBytes(32).toString('base64url');

  const finish = async (): Promise<void> => {
    if (killTimer !== undefined) clearTimeout(killTimer);
    // the last lines of every worker reach the orchestrator before this process goes
    await Promise.race([Promise.all(closed), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    process.exitCode = failed ? 1 : 0;
    process.stdout.write('', () => process.exit());
  };

  const stop = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ reason, workers: live.size }, `stopping ${live.size} worker(s) of ${name} (${reason})`);
    for (const worker of live.values()) worker.process.kill('SIGTERM');
    killTimer = setTimeout(() => {
      for (const [index, worker] of live) {
        log.error({ worker: index, worker_pid: worker.process.pid }, `worker ${index} of ${name} did not stop within ${WORKER_STOP_GRACE_MS} ms; killing it`);
        failed = true;
        worker.process.kill('SIGKILL');
      }
    }, WORKER_STOP_GRACE_MS);
  };

  for (let index = 0; index < numWorkers; index++) {
    const worker = cluster.fork({
      [WORKER_INDEX_ENV]: String(index),
      [WORKER_SESSION_SECRET_ENV]: sessionSecret,
      OTEL_RESOURCE_ATTRIBUTES: workerResourceAttributes(process.env['OTEL_RESOURCE_ATTRIBUTES'], workerInstanceId(name, index)),
    });
    live.set(index, worker);
    closed.push(Promise.all([relayLines(worker.process.stdout!, process.stdout), relayLines(worker.process.stderr!, process.stderr)]).then(() => undefined));
    // each worker's final telemetry losses go on to the orchestrator, which reports the run's total
    worker.on('message', (message: unknown) => {
      if (isLossesMessage(message) && process.connected) process.send?.(message);
    });
    worker.once('listening', () => {
      listening.add(index);
      if (listening.size < numWorkers || stopping) return;
      const workers: ServerWorker[] = [...live].map(([i, w]) => ({ index: i, pid: w.process.pid! })).sort((a, b) => a.index - b.index);
      log.info({ workers }, `${name}: ${numWorkers} workers listening`);
      const message: WorkersMessage = { type: WORKERS_MESSAGE_TYPE, workers };
      process.send?.(message);
    });
    worker.once('exit', (code, signal) => {
      live.delete(index);
      if (!stopping) {
        failed = true;
        log.error(
          { worker: index, worker_pid: worker.process.pid, code, signal },
          `worker ${index} (pid ${worker.process.pid}) of ${name} exited unexpectedly (${signal ?? code}); stopping the server`,
        );
        stop(`worker ${index} exited`);
      } else if (code !== 0 && code !== null) {
        failed = true;
      }
      if (live.size === 0) void finish();
    });
  }

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
  // started with an IPC channel by the orchestrator: when it goes, however it died, so do the workers
  if (process.send !== undefined) process.once('disconnect', () => stop('orchestrator disconnected'));
}
