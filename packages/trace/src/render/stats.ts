/**
 * Renders span statistics and comparisons as text or Markdown tables.
 * @module
 */
import type { StatsComparison } from '../analyze/compare.js';
import type { SpanStats } from '../analyze/stats.js';
import { formatMs, formatPct, markdownTable, textTable } from './format.js';
import type { TableFit } from './format.js';

/** Output style of the stats renderers. */
export type StatsFormat = 'text' | 'markdown';

// `gym.model.chat_completions`, `POST /aggregate_metrics`: the names of a run, readable at 80 columns
const STATS_NAME_FLOOR = 26;

/** One row per group: count, errors, percentiles (nearest rank), totals, share of rollout wall time. */
export function renderStats(stats: SpanStats, format: StatsFormat = 'text', width?: number): string {
  const table = tableFor(format, width);
  const by = stats.by.type === 'attribute' ? `attribute ${stats.by.key}` : stats.by.type;
  const rows = stats.groups.map((g) => [
    g.key,
    String(g.count),
    g.errorCount === 0 ? '0' : `${g.errorCount} (${formatPct(g.errorRate)})`,
    formatMs(g.p50),
    formatMs(g.p90),
    formatMs(g.p95),
    formatMs(g.p99),
    formatMs(g.max),
    formatMs(g.totalMs),
    formatMs(g.totalSelfMs),
    formatPct(g.shareOfRolloutWall),
  ]);
  const notes = [`${stats.rolloutCount} rollouts, ${formatMs(stats.rolloutWallMs)} total rollout wall time`];
  if (stats.truncatedExcluded > 0) notes.push(`${stats.truncatedExcluded} truncated spans excluded`);
  if (stats.ungrouped > 0) notes.push(`${stats.ungrouped} spans without ${by}`);
  const head = format === 'markdown' ? `### Spans by ${by}\n\n` : `Spans by ${by}\n\n`;
  return (
    head +
    // names whole (up to STATS_NAME_FLOOR columns) before p90, p99, max and total are left out
    table(['' + by, 'count', 'errors', 'p50', 'p90', 'p95', 'p99', 'max', 'total', 'self', 'self/wall'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'], {
      droppable: [4, 6, 7, 8],
      floor: STATS_NAME_FLOOR,
    }) +
    `\n${notes.join('; ')}\n`
  );
}

/** The comparison table; flagged rows are marked `!`. */
export function renderComparison(c: StatsComparison, format: StatsFormat = 'text', width?: number): string {
  const table = tableFor(format, width);
  const pct = (v: number | null) => (v === null ? '-' : `${v > 0 ? '+' : ''}${v.toFixed(1)}%`);
  const rows = c.rows.map((r) => [
    r.flagged ? '!' : '',
    r.key,
    r.change,
    r.a === null ? '-' : formatMs(r.a.p50),
    r.b === null ? '-' : formatMs(r.b.p50),
    pct(r.p50DeltaPct),
    r.a === null ? '-' : formatMs(r.a.p95),
    r.b === null ? '-' : formatMs(r.b.p95),
    pct(r.p95DeltaPct),
  ]);
  const head = `${c.flaggedCount} of ${c.rows.length} groups moved more than ${c.thresholdPct}% at p50 or p95 (A → B)\n\n`;
  return (format === 'markdown' ? `### ${head}` : head) + table(['', 'group', 'change', 'p50 A', 'p50 B', 'Δp50', 'p95 A', 'p95 B', 'Δp95'], rows, ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r']);
}

// text tables fit `width` (p90, p99, max, total give way first); Markdown is for pasting, never cut
function tableFor(format: StatsFormat, width: number | undefined): (h: readonly string[], r: readonly string[][], a?: readonly ('l' | 'r')[], f?: TableFit) => string {
  if (format === 'markdown') return markdownTable;
  return (h, r, a, f = {}) => textTable(h, r, a, { ...f, ...(width === undefined ? {} : { maxWidth: width }) });
}
