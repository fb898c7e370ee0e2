/**
 * Renders time attributions (`why`) and their aggregate (`why --all`) as text or Markdown.
 * JSON output is the result objects themselves.
 * @module
 */
import type { Attribution } from '../analyze/attribution.js';
import type { AttributionSummary } from '../analyze/attribution-summary.js';
import { TIME_CATEGORIES } from '../analyze/categorize.js';
import type { TimeCategory } from '../analyze/categorize.js';
import { displayService, formatMs, formatPct, markdownTable, textTable } from './format.js';

const LABEL: Record<TimeCategory, string> = {
  model: 'model',
  tools: 'tools',
  verify: 'verification',
  seed: 'seed session',
  agent: 'agent harness',
  network: 'network + queueing',
  unaccounted: 'unaccounted',
};

/** Output style of the `why` renderers. */
export type WhyFormat = 'text' | 'markdown';

/** Renders one attribution: categories, network hops, the critical spans (top 15). */
export function renderAttribution(a: Attribution, format: WhyFormat = 'text'): string {
  const table = format === 'markdown' ? markdownTable : textTable;
  const title = `${a.rolloutId === null ? `span ${a.rootName}` : `rollout ${a.rolloutId}`} — trace ${a.traceId} — wall ${formatMs(a.wallMs)}`;
  const cats = TIME_CATEGORIES.map((c) => [
    LABEL[c],
    formatMs(a.categories[c]),
    formatPct(a.wallMs > 0 ? a.categories[c] / a.wallMs : null),
    c === 'network' ? `before ${formatMs(a.network.beforeMs)}, after ${formatMs(a.network.afterMs)}` : '',
  ]);
  const hops = a.hops.slice(0, 15).map((h) => [
    h.name,
    `${displayService(h.fromService)} → ${displayService(h.toService)}`,
    formatMs(h.clientMs),
    formatMs(h.serverMs),
    formatMs(h.beforeMs),
    formatMs(h.afterMs),
    h.onCriticalPath ? '*' : '',
  ]);
  const spans = a.criticalSpans.slice(0, 15).map((s) => [s.name, displayService(s.service), LABEL[s.category], formatMs(s.ms), formatPct(a.wallMs > 0 ? s.ms / a.wallMs : null)]);
  const parts = [
    heading(title, format),
    'Time on the critical path, by category (the parts sum to the wall time):\n',
    table(['category', 'time', 'share', 'detail'], cats, ['l', 'r', 'r', 'l']),
  ];
  if (hops.length > 0) {
    parts.push('\nNetwork and queueing per call (client time outside the server span; * = on the critical path):\n');
    parts.push(table(['call', 'from → to', 'client', 'server', 'before', 'after', 'crit'], hops, ['l', 'l', 'r', 'r', 'r', 'r', 'l']));
  }
  parts.push('\nSpans owning critical-path time (self time on the path):\n');
  parts.push(table(['span', 'service', 'category', 'time', 'share'], spans, ['l', 'l', 'l', 'r', 'r']));
  return parts.join('');
}

/** Renders the `--all` aggregate: total and mean share per category. */
export function renderAttributionSummary(s: AttributionSummary, format: WhyFormat = 'text'): string {
  const table = format === 'markdown' ? markdownTable : textTable;
  const rows = TIME_CATEGORIES.map((c) => [
    LABEL[c],
    formatMs(s.categories[c].totalMs),
    formatPct(s.totalWallMs > 0 ? s.categories[c].totalMs / s.totalWallMs : null),
    formatPct(s.categories[c].meanShare),
  ]);
  return [
    heading(`${s.rollouts} rollouts — total wall ${formatMs(s.totalWallMs)} — mean ${formatMs(s.meanWallMs)}`, format),
    'Critical-path time by category over all rollouts:\n',
    table(['category', 'total', 'share of total', 'mean share'], rows, ['l', 'r', 'r', 'r']),
    `\nnetwork + queueing: before the server ${formatMs(s.network.beforeMs)}, after it ${formatMs(s.network.afterMs)}\n`,
  ].join('');
}

function heading(title: string, format: WhyFormat): string {
  return format === 'markdown' ? `### ${title}\n\n` : `${title}\n\n`;
}
