/**
 * Exact percentiles by the nearest-rank method: the p-th percentile of n sorted values is the
 * value at rank ⌈p/100 · n⌉ (1-based). It is always an observed value, never interpolated.
 * @module
 */
import { joinFloat64 } from './number-lists.js';

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

/**
 * Count, p50/p90/p95/p99 and max of `values` (not changed): the values a sorted copy holds at those
 * ranks. Found by selection in a copy, not by sorting it: a run's largest group holds a few million
 * durations, sorted on one thread once every batch is in. `more` are further values (the shares of
 * other threads), copied in beside them instead of being joined first.
 */
export function summarizeDurations(values: ArrayLike<number>, more: readonly Float64Array[] = []): DurationSummary {
  const a = joinFloat64([values, ...more]);
  const n = a.length;
  if (n === 0 || !plainNumbers(a)) return summarizeSorted(a.sort());
  const at = (p: number) => Math.min(Math.max(1, Math.ceil((p / 100) * n)), n) - 1;
  // each rank is at or after the one before: select it among the values from there on
  let from = 0;
  const pick = (p: number): number => {
    const k = at(p);
    selectRank(a, k, from, n);
    from = k;
    return a[k]!;
  };
  const p50 = pick(50);
  const p90 = pick(90);
  const p95 = pick(95);
  const p99 = pick(99);
  let max = a[from]!;
  for (let i = from + 1; i < n; i++) if (a[i]! > max) max = a[i]!;
  return { count: n, p50, p90, p95, p99, max };
}

function summarizeSorted(sorted: Float64Array): DurationSummary {
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? NaN : sorted[sorted.length - 1]!,
  };
}

// True when `<` orders every value as a sort does: no NaN (sorted last) and no -0 (sorted before 0)
function plainNumbers(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v !== v || (v === 0 && 1 / v < 0)) return false;
  }
  return true;
}

/**
 * Moves the value of rank `k` (0-based, as in sorted order) of a[from, to) to a[k], the smaller
 * ones before it and the larger after (quickselect, median of three, equal values kept together so
 * that many equal durations cost one pass). Past a few dozen passes (input that defeats the pivot)
 * it sorts what is left.
 */
function selectRank(a: Float64Array, k: number, from: number, to: number): void {
  let lo = from;
  let hi = to;
  for (let passes = 0; hi - lo > 1; passes++) {
    if (passes > 64) {
      a.subarray(lo, hi).sort();
      return;
    }
    const pivot = medianOfThree(a[lo]!, a[lo + ((hi - lo) >> 1)]!, a[hi - 1]!);
    // [lo, lt) < pivot, [lt, i) = pivot, [gt, hi) > pivot
    let lt = lo;
    let gt = hi;
    let i = lo;
    while (i < gt) {
      const v = a[i]!;
      if (v < pivot) {
        a[i++] = a[lt]!;
        a[lt++] = v;
      } else if (v > pivot) {
        a[i] = a[--gt]!;
        a[gt] = v;
      } else i++;
    }
    if (k < lt) hi = lt;
    else if (k >= gt) lo = gt;
    else return;
  }
}

function medianOfThree(x: number, y: number, z: number): number {
  return x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
}
