/**
 * `why --all`: time attribution aggregated over many rollouts.
 * @module
 */
import { TIME_CATEGORIES } from './categorize.js';
import type { TimeCategory } from './categorize.js';
import type { Attribution } from './attribution.js';

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
  const categories = Object.fromEntries(TIME_CATEGORIES.map((c) => [c, { totalMs: 0, meanShare: 0 }])) as AttributionSummary['categories'];
  let totalWallMs = 0;
  let counted = 0;
  const network = { beforeMs: 0, afterMs: 0 };
  for (const a of items) {
    totalWallMs += a.wallMs;
    network.beforeMs += a.network.beforeMs;
    network.afterMs += a.network.afterMs;
    if (a.wallMs > 0) counted++;
    for (const c of TIME_CATEGORIES) {
      categories[c].totalMs += a.categories[c];
      if (a.wallMs > 0) categories[c].meanShare += a.categories[c] / a.wallMs;
    }
  }
  if (counted > 0) for (const c of TIME_CATEGORIES) categories[c].meanShare /= counted;
  return { type: 'attribution_summary', rollouts: items.length, totalWallMs, meanWallMs: items.length === 0 ? 0 : totalWallMs / items.length, categories, network };
}
