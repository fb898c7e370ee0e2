/**
 * Compares two {@link SpanStats} (before/after a change) and flags groups whose p50 or p95 moved
 * by more than a threshold.
 * @module
 */
import type { SpanStats, StatsGroup } from './stats.js';

/** One group in the comparison. `*DeltaPct` is (B − A) / A × 100; null when either side is missing. */
export interface ComparisonRow {
  key: string;
  change: 'slower' | 'faster' | 'unchanged' | 'added' | 'removed';
  flagged: boolean;
  a: Pick<StatsGroup, 'count' | 'p50' | 'p95'> | null;
  b: Pick<StatsGroup, 'count' | 'p50' | 'p95'> | null;
  p50DeltaPct: number | null;
  p95DeltaPct: number | null;
}

/** Result of {@link compareStats}; flagged rows first, then by largest move. */
export interface StatsComparison {
  type: 'stats_comparison';
  thresholdPct: number;
  rows: ComparisonRow[];
  flaggedCount: number;
}

/** Flags groups whose p50 or p95 changed by more than `thresholdPct` percent (default 10). */
export function compareStats(a: SpanStats, b: SpanStats, thresholdPct = 10): StatsComparison {
  const A = new Map(a.groups.map((g) => [g.key, g]));
  const B = new Map(b.groups.map((g) => [g.key, g]));
  const rows: ComparisonRow[] = [];
  for (const key of new Set([...A.keys(), ...B.keys()])) {
    const ga = A.get(key);
    const gb = B.get(key);
    const pick = (g: StatsGroup | undefined) => (g === undefined ? null : { count: g.count, p50: g.p50, p95: g.p95 });
    if (ga === undefined || gb === undefined) {
      rows.push({ key, change: ga === undefined ? 'added' : 'removed', flagged: false, a: pick(ga), b: pick(gb), p50DeltaPct: null, p95DeltaPct: null });
      continue;
    }
    const p50 = deltaPct(ga.p50, gb.p50);
    const p95 = deltaPct(ga.p95, gb.p95);
    const flagged = Math.abs(p50) > thresholdPct || Math.abs(p95) > thresholdPct;
    const dominant = Math.abs(p50) >= Math.abs(p95) ? p50 : p95;
    rows.push({ key, change: !flagged ? 'unchanged' : dominant > 0 ? 'slower' : 'faster', flagged, a: pick(ga), b: pick(gb), p50DeltaPct: p50, p95DeltaPct: p95 });
  }
  const weight = (r: ComparisonRow) => Math.max(Math.abs(r.p50DeltaPct ?? 0), Math.abs(r.p95DeltaPct ?? 0));
  rows.sort((x, y) => Number(y.flagged) - Number(x.flagged) || weight(y) - weight(x) || (x.key < y.key ? -1 : 1));
  return { type: 'stats_comparison', thresholdPct, rows, flaggedCount: rows.filter((r) => r.flagged).length };
}

// From zero to something is an infinite move; report it as 100% so JSON stays finite.
function deltaPct(a: number, b: number): number {
  if (a === b) return 0;
  if (a === 0) return b > 0 ? 100 : -100;
  return ((b - a) / a) * 100;
}
