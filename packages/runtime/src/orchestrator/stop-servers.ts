/**
 * Stopping server processes: SIGTERM (each server closes gracefully and flushes its telemetry),
 * then SIGKILL for any still alive after a grace period. Processes are addressed by pid only; a
 * server with `num_workers > 1` is SIGKILLed with its process group (its primary and workers: the
 * orchestrator started it detached, so the group is the server's own). A Python server's host
 * forwards the SIGTERM to the Python process group and kills it after its own, shorter grace; should
 * the host itself hang, both groups are SIGKILLed here.
 *
 * A stop never waits on a process outside the server's control: whatever of the server's tree still
 * runs once the server ended (a descendant that called `setsid()` and ignores SIGTERM), and any
 * process still holding its output pipes, is SIGKILLed and reported with its pid and ports
 * (`leftover-processes.ts`); should a pipe stay open even then, its reading is abandoned.
 * @module
 */
import { describeLeftovers, killLeftovers, snapshotServerTree } from './leftover-processes.js';
import type { LeftoverProcess } from './leftover-processes.js';
import type { SpawnedServer } from './spawn-server.js';

/** Grace period between SIGTERM and SIGKILL. Long enough for a telemetry flush. */
export const STOP_GRACE_MS = 10_000;
/** How long the output pipes of an ended server may stay open before their holders are killed. */
export const PIPE_GRACE_MS = 2_000;

/** What {@link stopServers} reports on the way. */
export interface StopReports {
  /** A server that had to be SIGKILLed (its final telemetry flush did not run). */
  onKilled?: (server: SpawnedServer) => void;
  /** Processes that outlived their server (escaped its process group, or held its output pipes); they were SIGKILLed. */
  onLeftovers?: (server: SpawnedServer, leftovers: LeftoverProcess[], description: string) => void;
}

/** Resolves with true when `promise` settles within `ms`, false otherwise. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Stops every server and waits for its process to end and its log to be flushed: at most about
 * `graceMs` + 2 × {@link PIPE_GRACE_MS}, whatever its descendants do.
 */
export async function stopServers(servers: readonly SpawnedServer[], graceMs: number = STOP_GRACE_MS, reports: StopReports = {}): Promise<void> {
  await Promise.all(
    servers.map(async (server) => {
      const { child } = server;
      // read while the server runs: once it ends, its orphans no longer look like its descendants
      const snapshot = child.pid === undefined ? undefined : snapshotServerTree(child.pid);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => {
          reports.onKilled?.(server);
          kill(server);
        }, graceMs);
        await server.exited;
        clearTimeout(timer);
      }
      const piped = await within(server.tee.close(), PIPE_GRACE_MS);
      if (snapshot !== undefined) {
        // with the pipes closed, only the tree is searched (not every process's open files)
        const leftovers = killLeftovers(piped ? { ...snapshot, pipes: new Set() } : snapshot);
        if (leftovers.length > 0) reports.onLeftovers?.(server, leftovers, describeLeftovers(leftovers));
      }
      if (!piped && !(await within(server.tee.close(), PIPE_GRACE_MS))) await server.tee.abandon();
    }),
  );
}

function kill(server: SpawnedServer): void {
  const pid = server.child.pid;
  const python = server.pythonPid();
  if (python !== undefined) {
    try {
      process.kill(-python, 'SIGKILL');
    } catch {
      // the host stopped it already
    }
  }
  if ((server.numWorkers > 1 || server.language === 'python') && pid !== undefined) {
    try {
      process.kill(-pid, 'SIGKILL');
      return;
    } catch {
      // the group is gone already, or this platform has none: the primary alone
    }
  }
  server.child.kill('SIGKILL');
}
