/**
 * The liveness link between a process and the one that started it: an IPC channel, opened by the
 * parent at spawn. The kernel closes it when the parent ends, however it ends (a signal, a crash,
 * kill -9), and the child sees `disconnect` at once — no polling of a pid, no race with pid reuse.
 * Used by servers (their orchestrator) and by the CLI (the `gym` wrapper that started it).
 * @module
 */
import cluster from 'node:cluster';

/**
 * Calls `onGone` once when the parent's channel closes. Does nothing in a process started without
 * one, or in a cluster worker (its primary watches the orchestrator and stops the workers). Returns
 * a release function that stops watching and lets the channel stop holding the process open.
 */
export function watchParent(onGone: () => void): () => void {
  if (process.send === undefined || cluster.isWorker) return () => undefined;
  if (!process.connected) {
    // the parent ended before we got here
    setImmediate(onGone);
    return () => undefined;
  }
  const listener = (): void => onGone();
  process.once('disconnect', listener);
  return () => {
    process.removeListener('disconnect', listener);
    // an idle channel must not keep a finished process alive
    process.channel?.unref();
  };
}
