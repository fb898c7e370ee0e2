/**
 * The `k` strongest items seen so far, in O(k) memory whatever the number offered: a min-heap
 * whose root is the weakest item kept, so a new item either replaces it or is refused at the cost
 * of one comparison. Strength is the rank, then the earlier order: a total order, so the items
 * kept and their order do not depend on the order they were offered in (two keepers of parts of a
 * run, merged, keep what one keeper of the whole run keeps).
 * @module
 */

/** An item kept, with its rank and order. */
export interface Ranked<T> {
  rank: number;
  /** Position in the run (unique): of two equal ranks, the lower order is kept. */
  order: number;
  item: T;
}

/** Keeps the `k` highest-ranked items offered; of equal ranks, those of the lowest order. */
export class TopK<T> {
  readonly #k: number;
  readonly #heap: Array<Ranked<T>> = [];

  constructor(k: number) {
    this.#k = Math.max(0, Math.floor(k));
  }

  /** True when an item of `rank` and `order` would be kept: check before building a costly item. */
  accepts(rank: number, order: number): boolean {
    if (this.#k === 0) return false;
    if (this.#heap.length < this.#k) return true;
    const weakest = this.#heap[0]!;
    return rank > weakest.rank || (rank === weakest.rank && order < weakest.order);
  }

  /** Offers `item`; returns false when it was not kept. */
  offer(rank: number, order: number, item: T): boolean {
    if (!this.accepts(rank, order)) return false;
    const heap = this.#heap;
    if (heap.length < this.#k) {
      heap.push({ rank, order, item });
      this.#up(heap.length - 1);
    } else {
      heap[0] = { rank, order, item };
      this.#down(0);
    }
    return true;
  }

  /** The items kept, strongest first. */
  sorted(): T[] {
    return this.ranked().map((e) => e.item);
  }

  /** The items kept with their ranks and orders, strongest first. */
  ranked(): Array<Ranked<T>> {
    return [...this.#heap].sort((a, b) => (weaker(a, b) ? 1 : weaker(b, a) ? -1 : 0));
  }

  #up(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!weaker(heap[i]!, heap[p]!)) return;
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
      if (l < heap.length && weaker(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && weaker(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[m], heap[i]] = [heap[i]!, heap[m]!];
      i = m;
    }
  }
}

function weaker(a: Ranked<unknown>, b: Ranked<unknown>): boolean {
  return a.rank < b.rank || (a.rank === b.rank && a.order > b.order);
}
