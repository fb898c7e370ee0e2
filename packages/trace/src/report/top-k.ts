/**
 * The `k` items with the highest rank seen so far, in O(k) memory whatever the number offered:
 * a min-heap whose root is the weakest item kept, so a new item either replaces it or is refused
 * at the cost of one comparison.
 * @module
 */

/** Keeps the `k` highest-ranked items offered. Ties keep the item offered first. */
export class TopK<T> {
  readonly #k: number;
  readonly #heap: Array<{ rank: number; item: T }> = [];

  constructor(k: number) {
    this.#k = Math.max(0, Math.floor(k));
  }

  /** True when an item of `rank` would be kept: check before building a costly item. */
  accepts(rank: number): boolean {
    return this.#k > 0 && (this.#heap.length < this.#k || rank > this.#heap[0]!.rank);
  }

  /** Offers `item`; returns false when it was not kept. */
  offer(rank: number, item: T): boolean {
    if (!this.accepts(rank)) return false;
    const heap = this.#heap;
    if (heap.length < this.#k) {
      heap.push({ rank, item });
      this.#up(heap.length - 1);
    } else {
      heap[0] = { rank, item };
      this.#down(0);
    }
    return true;
  }

  /** The items kept, highest rank first. */
  sorted(): T[] {
    return [...this.#heap].sort((a, b) => b.rank - a.rank).map((e) => e.item);
  }

  #up(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p]!.rank <= heap[i]!.rank) return;
      [heap[p], heap[i]] = [heap[i]!, heap[p]!];
      i = p;
    }
  }

  #down(i: number): void {
    const heap = this.#heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && heap[l]!.rank < heap[m]!.rank) m = l;
      if (r < heap.length && heap[r]!.rank < heap[m]!.rank) m = r;
      if (m === i) return;
      [heap[m], heap[i]] = [heap[i]!, heap[m]!];
      i = m;
    }
  }
}
