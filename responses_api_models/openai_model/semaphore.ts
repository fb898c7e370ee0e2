/**
 * A counting semaphore for `max_concurrent_requests`: at most `limit` upstream calls in flight per
 * process, the rest wait in FIFO order.
 * @module
 */

/** Limits concurrent async work to a fixed number of slots. */
export class Semaphore {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  /** @param limit slots; a positive integer */
  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Semaphore limit must be a positive integer, got ${limit}`);
    this.#free = limit;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `fn` once a slot is free; the slot is released when its promise settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      return await fn();
    } finally {
      this.#release();
    }
  }

  #acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    // hand the slot straight to the next waiter, so a newcomer cannot overtake it
    if (next === undefined) this.#free += 1;
    else next();
  }
}
