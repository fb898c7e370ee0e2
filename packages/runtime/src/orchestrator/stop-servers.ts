/**
 * Stopping server processes: SIGTERM (each server closes gracefully and flushes its telemetry),
 * then SIGKILL for any still alive after a grace period. Processes are addressed by pid only.
 * @module
 */
import type { SpawnedServer } from './spawn-server.js';

/** Grace period between SIGTERM and SIGKILL. Long enough for a telemetry flush. */
export const STOP_GRACE_MS = 10_000;

/** Stops every server and waits for its process to end and its log to be flushed. */
export async function stopServers(servers: readonly SpawnedServer[], graceMs: number = STOP_GRACE_MS): Promise<void> {
  await Promise.all(
    servers.map(async (server) => {
      const { child } = server;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await server.exited;
        clearTimeout(timer);
      }
      await server.tee.close();
    }),
  );
}
