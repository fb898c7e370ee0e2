/**
 * `why --all`: time attribution aggregated over many rollouts.
 * @module
 */
import { TIME_CATEGORIES } from './categorize.js';
import type { TimeCategory } from './categorize.js';
import { outermostOf } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import { splitRolloutTime } from './attribution.js';
import type { Attribution, TimeSplit } from './attribution.js';
import { SPLIT_AFTER, SPLIT_BEFORE, SPLIT_WALL, walkTimeSplit } from './time-split.js';

/** Totals and mean shares per category over many rollouts. */
export interface AttributionSummary {
  type: 'attribution_summary';
  rollouts: number;
  totalWallMs: number;
  meanWallMs: number;
  /** `totalMs`: summed over rollouts; `meanShare`: mean of each rollout's fraction (0–1). */
  categories: Record<TimeCategory, { totalMs: number; meanShare: number }>;
  network: { beforeMs: number; afterMs: number };
}

/** Sums the attributions; a rollout with zero wall time contributes nothing to the mean shares. */
export function summarizeAttributions(items: readonly Attribution[]): AttributionSummary {
  const totals = new AttributionTotals();
  for (const a of items) totals.add(a);
  return totals.finish();
}

/** What an {@link AttributionTotals} holds. */
export interface AttributionTotalsState {
  categories: AttributionSummary['categories'];
  totalWallMs: number;
  counted: number;
  items: number;
  network: { beforeMs: number; afterMs: number };
}

/** {@link summarizeAttributions} one attribution at a time, keeping sums only. */
export class AttributionTotals {
  #categories = Object.fromEntries(TIME_CATEGORIES.map((c) => [c, { totalMs: 0, meanShare: 0 }])) as AttributionSummary['categories'];
  #totalWallMs = 0;
  #counted = 0;
  #items = 0;
  #network = { beforeMs: 0, afterMs: 0 };

  add(a: TimeSplit): void {
    this.#items++;
    this.#totalWallMs += a.wallMs;
    this.#network.beforeMs += a.network.beforeMs;
    this.#network.afterMs += a.network.afterMs;
    if (a.wallMs > 0) this.#counted++;
    for (const c of TIME_CATEGORIES) {
      this.#categories[c].totalMs += a.categories[c];
      if (a.wallMs > 0) this.#categories[c].meanShare += a.categories[c] / a.wallMs;
    }
  }

  /**
   * {@link add} from the slots {@link walkTimeSplit} fills (ns), without a {@link TimeSplit} per
   * rollout: the same numbers, added in the same order.
   */
  addSums(sums: Float64Array): void {
    const wallMs = sums[SPLIT_WALL]! / 1e6;
    this.#items++;
    this.#totalWallMs += wallMs;
    this.#network.beforeMs += sums[SPLIT_BEFORE]! / 1e6;
    this.#network.afterMs += sums[SPLIT_AFTER]! / 1e6;
    if (wallMs > 0) this.#counted++;
    for (let i = 0; i < TIME_CATEGORIES.length; i++) {
      const ms = sums[i]! / 1e6;
      const sum = this.#categories[TIME_CATEGORIES[i]!];
      sum.totalMs += ms;
      if (wallMs > 0) sum.meanShare += ms / wallMs;
    }
  }

  /**
   * {@link addSums} from the same slots already in ms (each `ns / 1e6`): what a rollout's row of
   * the store's derived table holds. The same numbers, added in the same order.
   */
  addSplitMs(ms: ArrayLike<number>): void {
    const wallMs = ms[SPLIT_WALL]!;
    this.#items++;
    this.#totalWallMs += wallMs;
    this.#network.beforeMs += ms[SPLIT_BEFORE]!;
    this.#network.afterMs += ms[SPLIT_AFTER]!;
    if (wallMs > 0) this.#counted++;
    for (let i = 0; i < TIME_CATEGORIES.length; i++) {
      const sum = this.#categories[TIME_CATEGORIES[i]!];
      sum.totalMs += ms[i]!;
      if (wallMs > 0) sum.meanShare += ms[i]! / wallMs;
    }
  }

  /** Adds the time split of the rollout `r`, as `splitRolloutTime` gives it, from one walk of its critical path and no object. */
  addRollout(r: Rollout): void {
    const sums = walkTimeSplit(outermostOf(r), r.node.span.service);
    // a rollout longer than 2^53 ns is summed in bigints
    if (sums === null) this.add(splitRolloutTime(r));
    else this.addSums(sums);
  }

  /** Number of attributions added. */
  get count(): number {
    return this.#items;
  }

  /** The sums so far, as plain data (for {@link AttributionTotals.merge} in another thread). */
  state(): AttributionTotalsState {
    return { categories: this.#categories, totalWallMs: this.#totalWallMs, counted: this.#counted, items: this.#items, network: this.#network };
  }

  /** Adds the sums of another instance, as if its attributions had been added here after these. */
  merge(s: AttributionTotalsState): void {
    this.#items += s.items;
    this.#counted += s.counted;
    this.#totalWallMs += s.totalWallMs;
    this.#network.beforeMs += s.network.beforeMs;
    this.#network.afterMs += s.network.afterMs;
    for (const c of TIME_CATEGORIES) {
      this.#categories[c].totalMs += s.categories[c].totalMs;
      this.#categories[c].meanShare += s.categories[c].meanShare;
    }
  }

  finish(): AttributionSummary {
    const categories = Object.fromEntries(
      TIME_CATEGORIES.map((c) => [c, { totalMs: this.#categories[c].totalMs, meanShare: this.#counted > 0 ? this.#categories[c].meanShare / this.#counted : this.#categories[c].meanShare }]),
    ) as AttributionSummary['categories'];
    const n = this.#items;
    return { type: 'attribution_summary', rollouts: n, totalWallMs: this.#totalWallMs, meanWallMs: n === 0 ? 0 : this.#totalWallMs / n, categories, network: { ...this.#network } };
  }
}
