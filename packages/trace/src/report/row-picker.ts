/**
 * Which rows of a run carry a waterfall in the report, chosen while the run streams by in bounded
 * memory: the failed (errors before incomplete ones, slowest first), the slowest, and a uniform
 * sample. The sample keeps the rows with the highest hash of their ids, so it is the same sample
 * whatever order or batches the rows come in.
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
  key: string;
  /** Stable identity for the sample (trace id and row id). */
  identity: string;
  durationMs: number;
  /** 2 for an error, 1 for incomplete, 0 otherwise. */
  failure: 0 | 1 | 2;
  build(): D;
}

/** A chosen row and what `build` made of it. */
export interface Picked<D> {
  key: string;
  reason: PickReason;
  built: D;
}

interface Entry<D> {
  key: string;
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
    const failRank = c.failure * 1e12 + c.durationMs;
    const sampleRank = hash32(c.identity);
    const wanted = (c.failure > 0 && this.#failed.accepts(failRank)) || this.#slowest.accepts(c.durationMs) || this.#sample.accepts(sampleRank);
    if (!wanted) return;
    const entry: Entry<D> = { key: c.key, built: c.build() };
    if (c.failure > 0) this.#failed.offer(failRank, entry);
    this.#slowest.offer(c.durationMs, entry);
    this.#sample.offer(sampleRank, entry);
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
    const seen = new Set<string>();
    const picked: Array<Picked<D>> = [];
    for (const [e, reason] of order) {
      if (picked.length >= this.#limit) break;
      if (seen.has(e.key)) continue;
      seen.add(e.key);
      picked.push({ key: e.key, reason, built: e.built });
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
