/**
 * Stopping server processes: SIGTERM (each server closes gracefully and flushes its telemetry),
 * then SIGKILL for any still alive after a grace period. Processes are addressed by pid only; a
 * server with `num_workers > 1` is SIGKILLed with its process group (its primary and workers: the
 * orchestrator started it detached, so the group is the server's own). A Python server's host
 * forwards the SIGTERM to the Python process group and kills it after its own, shorter grace; should
 * the host itself hang, both groups are SIGKILLed here.
 * @module
 */
import type { SpawnedServer } from './spawn-server.js';

/** Grace period between SIGTERM and SIGKILL. Long enough for a telemetry flush. */
export const STOP_GRACE_MS = 10_000;

/**
 * Stops every server and waits for its process to end and its log to be flushed. `onKilled` hears
 * of each server that had to be SIGKILLed (its final telemetry flush did not run).
 */
export async function stopServers(servers: readonly SpawnedServer[], graceMs: number = STOP_GRACE_MS, onKilled: (server: SpawnedServer) => void = () => undefined): Promise<void> {
  await Promise.all(
    servers.map(async (server) => {
      const { child } = server;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => {
          onKilled(server);
          kill(server);
        }, graceMs);
        await server.exited;
        clearTimeout(timer);
      }
      await server.tee.close();
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
