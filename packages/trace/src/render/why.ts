/**
 * Renders time attributions (`why`) and their aggregate (`why --all`) as text or Markdown, with
 * the diagnosis sentence and the load of each process over the same window. JSON output is the
 * result objects themselves.
 * @module
 */
import type { Attribution, NetworkHop } from '../analyze/attribution.js';
import type { AttributionSummary } from '../analyze/attribution-summary.js';
import type { Bottleneck } from '../analyze/bottleneck.js';
import { TIME_CATEGORIES } from '../analyze/categorize.js';
import { BUSY_DELAY_P99_MS } from '../analyze/saturation-window.js';
import type { RolloutVerdict } from '../analyze/verdict.js';
import { verdictLabel } from '../analyze/verdict.js';
import { CATEGORY_LABEL } from './category-labels.js';
import { diagnosisSentence, NO_METRICS } from './diagnosis.js';
import { displayService, formatMs, formatPct, markdownTable, textTable, wrapProse } from './format.js';
import type { TableFit } from './format.js';

/** Output style of the `why` renderers. */
export type WhyFormat = 'text' | 'markdown';

/** What `why` adds to an attribution: the rollout's verdict and the bottleneck over its window. */
export interface WhyContext {
  verdict?: RolloutVerdict | null;
  bottleneck?: Bottleneck | null;
  /** Columns the text may take (the terminal's); none: as wide as the content. */
  width?: number;
}

type Table = (headers: readonly string[], rows: readonly string[][], align?: readonly ('l' | 'r')[], fit?: TableFit) => string;

/** The table renderer of `format`; text tables fit `width`, prose lines wrap to it. */
function tableFor(format: WhyFormat, width: number | undefined): { table: Table; prose: (text: string) => string } {
  if (format === 'markdown') return { table: markdownTable, prose: (t) => t };
  return { table: (h, r, a, f = {}) => textTable(h, r, a, { ...f, ...(width === undefined ? {} : { maxWidth: width }) }), prose: (t) => wrapProse(t, width) };
}

/** Renders one attribution: diagnosis, categories, hops in phases, process load, critical spans. */
export function renderAttribution(a: Attribution, format: WhyFormat = 'text', ctx: WhyContext = {}): string {
  const { table, prose } = tableFor(format, ctx.width);
  const verdict = ctx.verdict === undefined || ctx.verdict === null ? '' : ` — ${verdictLabel(ctx.verdict)}`;
  const title = `${a.rolloutId === null ? `span ${a.rootName}` : `rollout ${a.rolloutId}`} — trace ${a.traceId} — wall ${formatMs(a.wallMs)}${verdict}`;
  const cats = TIME_CATEGORIES.filter((c) => a.categories[c] !== 0).map((c) => [
    CATEGORY_LABEL[c],
    formatMs(a.categories[c]),
    formatPct(a.wallMs > 0 ? a.categories[c] / a.wallMs : null),
    c === 'network' ? `before ${formatMs(a.network.beforeMs)}, after ${formatMs(a.network.afterMs)}` : '',
  ]);
  const parts = [prose(heading(title, format))];
  if (ctx.bottleneck !== undefined && ctx.bottleneck !== null) parts.push(prose(`Diagnosis: ${diagnosisSentence(ctx.bottleneck)}\n\n`));
  parts.push(prose('Time on the critical path, by category (the parts sum to the wall time; empty categories left out):\n'));
  parts.push(table(['category', 'time', 'share', 'detail'], cats, ['l', 'r', 'r', 'l']));
  if (a.hops.length > 0) {
    parts.push(prose("\nCalls between processes: the caller's time outside the callee's span, in phases (* = on the critical path; ~ = phases not recorded, before/after the server span):\n"));
    parts.push(
      table(
        // the route and the callee tell calls apart; the caller (mostly the agent) gives way first
        ['call', 'to', 'client', 'server', 'queue', 'connect', 'transit', 'return', 'connection', 'crit', 'from'],
        a.hops.slice(0, 15).map(hopRow),
        ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
        { droppable: [10, 8, 3], floor: 14 },
      ),
    );
    const skewed = a.hops.filter((h) => h.clockSkewMs > 0);
    if (skewed.length > 0)
      parts.push(
        prose(
          `${skewed.length} call${skewed.length === 1 ? '' : 's'}: the callee's clock disagrees with the caller's by up to ${formatMs(Math.max(...skewed.map((h) => h.clockSkewMs)))}; phases were clamped to the caller's view.\n`,
        ),
      );
  }
  if (ctx.bottleneck !== undefined && ctx.bottleneck !== null) parts.push(renderLoads(ctx.bottleneck, format, 'the rollout', ctx.width));
  const spans = a.criticalSpans.slice(0, 15).map((s) => [s.name, displayService(s.service), CATEGORY_LABEL[s.category], formatMs(s.ms), formatPct(a.wallMs > 0 ? s.ms / a.wallMs : null)]);
  parts.push('\nSpans owning critical-path time (self time on the path):\n');
  parts.push(table(['span', 'service', 'category', 'time', 'share'], spans, ['l', 'l', 'l', 'r', 'r']));
  return parts.join('');
}

/** Renders the `--all` aggregate: diagnosis, total and mean share per category, process load. */
export function renderAttributionSummary(s: AttributionSummary, format: WhyFormat = 'text', bottleneck: Bottleneck | null = null, width?: number): string {
  const { table, prose } = tableFor(format, width);
  const rows = categoryShareRows(s);
  const parts = [prose(heading(`${s.rollouts} rollouts — total wall ${formatMs(s.totalWallMs)} — mean ${formatMs(s.meanWallMs)}`, format))];
  if (bottleneck !== null) parts.push(prose(`Diagnosis: ${diagnosisSentence(bottleneck)}\n\n`));
  parts.push('Critical-path time by category over all rollouts (empty categories left out):\n');
  parts.push(table(['category', 'total', 'share of total', 'mean share'], rows, ['l', 'r', 'r', 'r']));
  if (s.network.beforeMs + s.network.afterMs > 0)
    parts.push(prose(`\nnetwork + queue (phases not recorded): before the server ${formatMs(s.network.beforeMs)}, after it ${formatMs(s.network.afterMs)}\n`));
  if (bottleneck !== null) {
    const causes = bottleneck.causes
      .slice(0, 5)
      .map((c) => [
        c.kind.replace('_', ' '),
        c.from === null ? '-' : displayService(c.from),
        c.to === null ? (c.kind === 'caller_queue' || c.kind === 'caller_loop' ? 'all its calls' : '-') : displayService(c.to),
        formatMs(c.ms),
        formatPct(bottleneck.wallMs > 0 ? c.ms / bottleneck.wallMs : null),
      ]);
    parts.push('\nLargest causes (critical-path time, summed):\n');
    parts.push(table(['cause', 'in / from', 'to', 'time', 'share'], causes, ['l', 'l', 'l', 'r', 'r']));
    parts.push(renderLoads(bottleneck, format, 'the run', width));
  }
  return parts.join('');
}

/** The category table of an aggregate alone (for `stats`). */
export function renderCategoryShares(s: AttributionSummary, format: WhyFormat = 'text', width?: number): string {
  const { table, prose } = tableFor(format, width);
  const rows = categoryShareRows(s);
  return `${prose(`Critical-path time of the ${s.rollouts} rollouts by category (as \`why --all\`; empty categories left out):`)}\n${table(['category', 'total', 'share of total', 'mean share'], rows, ['l', 'r', 'r', 'r'])}`;
}

function categoryShareRows(s: AttributionSummary): string[][] {
  return TIME_CATEGORIES.filter((c) => s.categories[c].totalMs !== 0).map((c) => [
    CATEGORY_LABEL[c],
    formatMs(s.categories[c].totalMs),
    formatPct(s.totalWallMs > 0 ? s.categories[c].totalMs / s.totalWallMs : null),
    formatPct(s.categories[c].meanShare),
  ]);
}

function renderLoads(b: Bottleneck, format: WhyFormat, what: string, width: number | undefined): string {
  const { table, prose } = tableFor(format, width);
  if (!b.saturationRecorded) return prose(`\nProcess load: ${NO_METRICS}.\n`);
  if (b.loads.length === 0) return `\nProcess load: no saturation samples over ${what}'s window.\n`;
  const rows = b.loads.map((l) => [
    displayService(l.service),
    String(l.processes),
    formatPct(l.elu),
    l.delayP99Ms === null ? '-' : formatMs(l.delayP99Ms),
    formatPct(l.slowDelayShare),
    formatPct(l.gcShare),
  ]);
  const columns = ['service', 'processes', 'event loop busy', 'delay p99', `p99 ≥ ${BUSY_DELAY_P99_MS}ms`, 'GC'];
  const legend = `event-loop utilization, worst delay p99, share of the window with a delay p99 of ${BUSY_DELAY_P99_MS} ms or more, share in GC`;
  return `${prose(`\nProcess load over ${what}'s window (${legend}):`)}\n${table(columns, rows, ['l', 'r', 'r', 'r', 'r', 'r'])}`;
}

function hopRow(h: NetworkHop): string[] {
  const p = h.phases;
  const v = (x: number | undefined) => formatMs(x ?? 0);
  const phased = h.phasesRecorded;
  return [
    h.name,
    displayService(h.toService),
    formatMs(h.clientMs),
    h.serverSpanId === null ? 'missing' : formatMs(h.serverMs),
    phased ? v(p.caller_queue) : '-',
    phased ? v(p.connect) : '-',
    phased ? v(p.transit) : `~${v(p.network_before)}`,
    phased ? v(p.return) : `~${v(p.network_after)}`,
    h.reused === null ? '-' : h.reused ? 'reused' : `new ${formatMs(h.connectMs)}`,
    h.onCriticalPath ? '*' : '',
    `${displayService(h.fromService)}${h.collector ? ' (collector)' : ''}`,
  ];
}

function heading(title: string, format: WhyFormat): string {
  return format === 'markdown' ? `### ${title}\n\n` : `${title}\n\n`;
}
