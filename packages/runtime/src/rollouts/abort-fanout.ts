/**
 * One `AbortSignal` per in-flight rollout, all aborted together by one parent signal.
 *
 * Handing the parent itself to every request made undici add one `abort` listener to it per
 * request in flight (removed only when that request settles), so any collection with more than
 * ten rollouts in flight crossed Node's EventTarget limit and printed
 * `MaxListenersExceededWarning: … 11 abort listeners added to [AbortSignal]`. Here the parent
 * carries a single listener whatever the concurrency, and each rollout's own signal carries
 * undici's one listener for as long as its request runs.
 * @module
 */

/** Gives each task its own signal, aborted when the parent aborts. */
export interface AbortFanout {
  /** Runs `task` with a signal of its own; the signal is forgotten once `task` settles. */
  run<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Removes the listener from the parent. Idempotent. */
  close(): void;
}

/**
 * Creates the fan-out under `parent`.
 * @example
 * const fanout = createAbortFanout(inFlight.signal);
 * const outcome = await fanout.run((signal) => runRollout(http, url, row, signal));
 */
export function createAbortFanout(parent: AbortSignal): AbortFanout {
  const live = new Set<AbortController>();
  const onAbort = () => {
    for (const controller of live) controller.abort(parent.reason);
  };
  parent.addEventListener('abort', onAbort, { once: true });
  return {
    async run(task) {
      const controller = new AbortController();
      if (parent.aborted) controller.abort(parent.reason);
      else live.add(controller);
      try {
        return await task(controller.signal);
      } finally {
        live.delete(controller);
      }
    },
    close() {
      parent.removeEventListener('abort', onAbort);
    },
  };
}
