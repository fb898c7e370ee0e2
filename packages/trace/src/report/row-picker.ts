/**
 * Which rows of a run carry a waterfall in the report, chosen while the run streams by in bounded
 * memory: the failed (errors before incomplete ones, slowest first), the slowest, and a uniform
 * sample. The sample keeps the rows with the highest hash of their ids, so it is the same sample
 * whatever batches the rows come in. Equal ranks are settled by the row's order in the run, so
 * pickers of consecutive parts of a run, merged ({@link RowPicker.merge}), choose what one picker
 * of the whole run chooses, in the same order.
 * @module
 */
import { TopK } from './top-k.js';

/** Why a row carries a waterfall. */
export type PickReason = 'failed' | 'slowest' | 'sample';

/**
 * A row offered to the picker; `build` makes its (costly) waterfall, called only for a row kept,
 * at once: a waterfall holds no reference to the batch it came from, so a batch is let go.
 */
export interface Candidate<D> {
  /** The row's position in the run: unique, and ties go to the lower. */
  order: number;
  /** Stable identity for the sample (trace id and row id). */
  identity: string;
  durationMs: number;
  /** 2 for an error, 1 for incomplete, 0 otherwise. */
  failure: 0 | 1 | 2;
  build(): D;
}

/** A chosen row and what `build` made of it. */
export interface Picked<D> {
  order: number;
  reason: PickReason;
  built: D;
}

/**
 * What a {@link RowPicker} holds, as plain data when `D` is: each kept row once, with its rank in
 * each keeper that holds it (null in the others).
 */
export interface PickerState<D> {
  kept: Array<{ order: number; built: D; failed: number | null; slowest: number | null; sample: number | null }>;
}

interface Entry<D> {
  order: number;
  built: D;
}

/** Keeps the candidates for `limit` waterfalls: a quarter failed, half the slowest, the rest a sample. */
export class RowPicker<D> {
  readonly #limit: number;
  readonly #failed: TopK<Entry<D>>;
  readonly #slowest: TopK<Entry<D>>;
  readonly #sample: TopK<Entry<D>>;

  constructor(limit: number) {
    this.#limit = Math.max(0, Math.floor(limit));
    // each keeps `limit`, so a share one kind leaves unused can go to another
    this.#failed = new TopK(this.#limit);
    this.#slowest = new TopK(this.#limit);
    this.#sample = new TopK(this.#limit);
  }

  offer(c: Candidate<D>): void {
    // a duration that is not a number ranks last rather than breaking the order of the keepers
    const durationMs = Number.isNaN(c.durationMs) ? -Infinity : c.durationMs;
    const failRank = c.failure * 1e12 + durationMs;
    const sampleRank = hash32(c.identity);
    const o = c.order;
    const wanted = (c.failure > 0 && this.#failed.accepts(failRank, o)) || this.#slowest.accepts(durationMs, o) || this.#sample.accepts(sampleRank, o);
    if (!wanted) return;
    const entry: Entry<D> = { order: o, built: c.build() };
    if (c.failure > 0) this.#failed.offer(failRank, o, entry);
    this.#slowest.offer(durationMs, o, entry);
    this.#sample.offer(sampleRank, o, entry);
  }

  /** The rows kept so far, each once (for {@link merge} in another thread). */
  state(): PickerState<D> {
    const kept = new Map<Entry<D>, PickerState<D>['kept'][number]>();
    const note = (keeper: TopK<Entry<D>>, which: 'failed' | 'slowest' | 'sample') => {
      for (const { rank, item } of keeper.ranked()) {
        let k = kept.get(item);
        if (k === undefined) kept.set(item, (k = { order: item.order, built: item.built, failed: null, slowest: null, sample: null }));
        k[which] = rank;
      }
    };
    note(this.#failed, 'failed');
    note(this.#slowest, 'slowest');
    note(this.#sample, 'sample');
    return { kept: [...kept.values()] };
  }

  /** Adds another picker's {@link state}, whose rows come `offset` rows after this picker's first. */
  merge(s: PickerState<D>, offset: number): void {
    for (const k of s.kept) {
      const entry: Entry<D> = { order: k.order + offset, built: k.built };
      if (k.failed !== null) this.#failed.offer(k.failed, entry.order, entry);
      if (k.slowest !== null) this.#slowest.offer(k.slowest, entry.order, entry);
      if (k.sample !== null) this.#sample.offer(k.sample, entry.order, entry);
    }
  }

  /** The chosen rows, at most `limit`, each with its waterfall. */
  finish(): Array<Picked<D>> {
    const failed = this.#failed.sorted();
    const slowest = this.#slowest.sorted();
    const sample = this.#sample.sorted();
    const qFailed = Math.ceil(this.#limit / 4);
    const qSlowest = Math.ceil(this.#limit / 2);
    const order: Array<[Entry<D>, PickReason]> = [
      ...failed.slice(0, qFailed).map((e): [Entry<D>, PickReason] => [e, 'failed']),
      ...slowest.slice(0, qSlowest).map((e): [Entry<D>, PickReason] => [e, 'slowest']),
      ...sample.map((e): [Entry<D>, PickReason] => [e, 'sample']),
      ...slowest.slice(qSlowest).map((e): [Entry<D>, PickReason] => [e, 'slowest']),
      ...failed.slice(qFailed).map((e): [Entry<D>, PickReason] => [e, 'failed']),
    ];
    const seen = new Set<number>();
    const picked: Array<Picked<D>> = [];
    for (const [e, reason] of order) {
      if (picked.length >= this.#limit) break;
      if (seen.has(e.order)) continue;
      seen.add(e.order);
      picked.push({ order: e.order, reason, built: e.built });
    }
    return picked;
  }
}

// FNV-1a, 32 bits: a cheap, stable spread of ids over the sample's ranks.
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
