/**
 * Exact percentiles by the nearest-rank method: the p-th percentile of n sorted values is the
 * value at rank ⌈p/100 · n⌉ (1-based). It is always an observed value, never interpolated.
 * @module
 */

/** Summary of a sample of durations. */
export interface DurationSummary {
  count: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of an ascending-sorted array; NaN when empty. `p` in (0, 100]. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * n));
  return sorted[Math.min(rank, n) - 1]!;
}

/** Sorts a copy of `values` and returns count, p50/p90/p95/p99 and max. */
export function summarizeDurations(values: ArrayLike<number>): DurationSummary {
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
