/**
 * A few sums by key, in the order each key was first added: what one span or hop of a rollout
 * owned of the critical path, by category or by phase. Searched from the start (a handful of
 * keys), and cleared rather than dropped, so one instance serves rollout after rollout without
 * an object or a boxed number per rollout.
 * @module
 */

/** Sums by key, in the order first added; `count` of them. */
export class Tally<K extends string> {
  readonly keys: K[] = [];
  // numbers only: the engine keeps them unboxed
  readonly values: number[] = [];
  count = 0;

  clear(): void {
    this.count = 0;
  }

  add(key: K, value: number): void {
    for (let i = 0; i < this.count; i++)
      if (this.keys[i] === key) {
        this.values[i]! += value;
        return;
      }
    this.keys[this.count] = key;
    this.values[this.count++] = value;
  }

  /** The sum of every value. */
  total(): number {
    let sum = 0;
    for (let i = 0; i < this.count; i++) sum += this.values[i]!;
    return sum;
  }

  /** The key of the largest value (the first of equals), or `none` when empty. */
  largestKey<N>(none: N): K | N {
    let key: K | N = none;
    let most = -1;
    for (let i = 0; i < this.count; i++)
      if (this.values[i]! > most) {
        most = this.values[i]!;
        key = this.keys[i]!;
      }
    return key;
  }
}
