// summarizeDurations finds its ranks by selection: the same numbers as reading them off a sorted copy.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { percentile, summarizeDurations } from '../src/analyze/percentiles.js';

// what summarizeDurations gave when it sorted a copy
function bySorting(values: ArrayLike<number>) {
  const sorted = Float64Array.from(values).sort();
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? NaN : sorted[sorted.length - 1]!,
  };
}

describe('summarizeDurations', () => {
  it('gives the ranks of a sorted copy, on values of every size, spread and run of equals, and leaves its input alone', () => {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const shapes: Array<(i: number, n: number) => number> = [
      () => next() * 1000,
      () => Math.floor(next() * 4), // a few distinct values, many equal
      () => 996, // all equal (a generated run)
      (i) => i, // ascending
      (i, n) => n - i, // descending
      (i, n) => (i < n / 2 ? i : n - i), // organ pipe
      () => (next() < 0.01 ? 1e9 : next()), // a long tail
      () => -next() * 10, // negative (clock skew in garbage input)
    ];
    for (const n of [1, 2, 3, 5, 10, 99, 100, 101, 1000, 4099])
      for (const [s, shape] of shapes.entries()) {
        const values = Array.from({ length: n }, (_, i) => shape(i, n));
        const input = Float64Array.from(values);
        assert.deepEqual(summarizeDurations(input), bySorting(values), `n=${n} shape ${s}`);
        assert.deepEqual([...input], values, 'input unchanged');
      }
  });

  it('orders NaN last and -0 before 0, as a sort does', () => {
    for (const values of [[NaN, 1, 2], [3, NaN, NaN, 1], [-0, 0, 0, -0], [0, -0], [NaN], [-0]]) assert.deepEqual(summarizeDurations(values), bySorting(values), String(values));
    assert.ok(Object.is(summarizeDurations([-0, 0]).p50, -0));
  });

  it('is NaN for no values', () => {
    assert.deepEqual(summarizeDurations([]), { count: 0, p50: NaN, p90: NaN, p95: NaN, p99: NaN, max: NaN });
  });
});
