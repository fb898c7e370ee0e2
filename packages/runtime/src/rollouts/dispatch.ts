/**
 * Running work items with bounded or unbounded concurrency (the original's
 * semaphore around each `/run`; unset means every item at once).
 * @module
 */

/** Options of {@link dispatchAll}. */
export interface DispatchOptions<T> {
  /** Most items in flight at once; `undefined` runs every item at once. */
  concurrency?: number;
  /** Consulted before each item starts; once true, no further item starts. */
  shouldStop?: () => boolean;
  /** Runs one item; must not reject (a rejection is reported through `onError` and counts as done). */
  run(item: T): Promise<void>;
  /** Called when `run` rejects. Default: rethrow at the end. */
  onError?: (error: unknown, item: T) => void;
}

/** Result of {@link dispatchAll}. */
export interface DispatchResult {
  /** Items that were started. */
  started: number;
}

/**
 * Starts items in order, keeping at most `concurrency` in flight, and resolves once every started
 * item has finished. Items not started because `shouldStop()` turned true are left alone.
 */
export async function dispatchAll<T>(items: readonly T[], options: DispatchOptions<T>): Promise<DispatchResult> {
  const limit = options.concurrency ?? items.length;
  const shouldStop = options.shouldStop ?? (() => false);
  let next = 0;
  let firstError: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && !shouldStop()) {
      const item = items[next++] as T;
      try {
        await options.run(item);
      } catch (error) {
        if (options.onError !== undefined) options.onError(error, item);
        else firstError ??= { error };
      }
    }
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.min(limit, items.length); i++) workers.push(worker());
  await Promise.all(workers);
  if (firstError !== undefined) throw firstError.error;
  return { started: next };
}
