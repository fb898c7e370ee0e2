/**
 * Renders a {@link SpanTree} as a picture (text, optionally coloured: errors red, the critical path
 * marked and bold), as Markdown (the same picture in a code block) or as JSON. The text fits a given
 * width: details, bar, names and services give up columns in that order.
 * @module
 */
import type { SpanTree, TreeRow } from '../analyze/span-tree.js';
import { nsToIso } from '../read/time.js';
import { SPAN } from '../span-record.js';
import { displayService, elide, formatMs, paint, wrapFields, wrapProse } from './format.js';
import { barText, hasPhaseBar, PHASE_LEGEND } from './phase-bar.js';
import { spanDetails } from './span-details.js';

/** Options of the tree renderers. */
export interface TreeRenderOptions {
  /** ANSI colour (the CLI passes `process.stdout.isTTY`). Default false. */
  color?: boolean;
  /** Width of the waterfall bar in characters. Default 40 (less to fit `width`). */
  barWidth?: number;
  /** Columns each line may take (the terminal's); none: as wide as the content. */
  width?: number;
  /** A heading line printed above the tree. */
  title?: string;
}

const MAX_LABEL = 56;
const MAX_SERVICE = 24;
const DURATION = 8;

/** Column widths of one picture. */
interface TreeLayout {
  label: number;
  service: number;
  bar: number;
  details: number;
}

/**
 * Widths that fit `width`: columns give up space in a fixed order, each down to a floor (details
 * to 24, bar to 20, services to 14, details to nothing, names to 28, bar to 10, names to 16).
 * Details narrower than 8 columns are left out rather than cut to a stub.
 */
export function treeLayout(natural: TreeLayout, width: number | undefined): TreeLayout {
  const layout = { ...natural };
  if (width === undefined) return layout;
  // marker, name, service, duration, |bar|, details, separated by single spaces
  const used = () => 1 + 1 + layout.label + 1 + layout.service + 1 + DURATION + 1 + layout.bar + 2 + (layout.details > 0 ? 1 + layout.details : 0);
  const steps: [keyof TreeLayout, number][] = [
    ['details', 24],
    ['bar', 20],
    ['service', 14],
    ['details', 0],
    ['label', 28],
    ['bar', 10],
    ['label', 16],
  ];
  for (const [column, floor] of steps) {
    const over = used() - width;
    if (over <= 0) break;
    layout[column] = Math.max(Math.min(floor, layout[column]), layout[column] - over);
    if (column === 'details' && layout.details < 8) layout.details = 0;
  }
  return layout;
}

/** The text picture: critical-path marker, tree, service, duration, waterfall bar, details. */
export function renderTreeText(tree: SpanTree, options: TreeRenderOptions = {}): string {
  const p = paint(options.color ?? false);
  const agentService = agentServiceOf(tree);
  const details = tree.rows.map((r) => spanDetails(r.node, agentService).join(', '));
  const layout = treeLayout(
    {
      label: Math.min(MAX_LABEL, Math.max(4, ...tree.rows.map((r) => guides(r).length + r.node.span.name.length))),
      service: Math.min(MAX_SERVICE, Math.max(7, ...tree.rows.map((r) => displayService(r.node.span.service).length))),
      bar: options.barWidth ?? 40,
      details: Math.max(0, ...details.map((d) => d.length)),
    },
    options.width,
  );
  const lines: string[] = [];
  // a job trace's title lists every service: wrapped between its fields at the width
  if (options.title !== undefined) for (const line of wrapFields(options.title, options.width).split('\n')) lines.push(p.bold(line));
  tree.rows.forEach((row, i) => {
    const s = row.node.span;
    const mark = row.critical ? p.yellow('*') : ' ';
    const name = label(row, layout.label).padEnd(layout.label);
    const detail = elide(details[i]!, layout.details);
    const text = [
      mark,
      s.status.code === 'ERROR' ? p.red(name) : row.critical ? p.bold(name) : name,
      p.dim(elide(displayService(s.service), layout.service).padEnd(layout.service)),
      formatMs(row.durationMs).padStart(DURATION),
      `|${row.critical ? p.yellow(barText(row, tree, layout.bar)) : barText(row, tree, layout.bar)}|`,
      detail.length > 0 ? (s.status.code === 'ERROR' ? p.red(detail) : p.cyan(detail)) : '',
    ].join(' ');
    lines.push(text.trimEnd());
  });
  if (tree.omitted > 0) lines.push(p.dim(`  … ${tree.omitted} more spans not shown (raise --max-spans)`));
  lines.push(p.dim(`* = on the critical path; bar = ${formatMs(tree.wallMs)} from ${nsToIso(tree.startNs)}`));
  if (tree.rows.some(hasPhaseBar)) lines.push(p.dim(wrapProse(PHASE_LEGEND, options.width)));
  return lines.join('\n') + '\n';
}

/** Markdown: the plain picture in a fenced block under an optional heading. */
export function renderTreeMarkdown(tree: SpanTree, options: TreeRenderOptions = {}): string {
  const head = options.title === undefined ? '' : `### ${options.title}\n\n`;
  return `${head}\`\`\`text\n${renderTreeText(tree, { ...options, color: false, title: undefined })}\`\`\`\n`;
}

/** The JSON shape of one tree (offsets and durations in ms, times as ISO and nanos strings). */
export function treeToJson(tree: SpanTree): object {
  const agentService = agentServiceOf(tree);
  return {
    type: 'span_tree',
    start_time: nsToIso(tree.startNs),
    wall_ms: tree.wallMs,
    omitted: tree.omitted,
    spans: tree.rows.map((r) => {
      const s = r.node.span;
      return {
        trace_id: s.traceId,
        span_id: s.spanId,
        parent_span_id: s.parentSpanId,
        name: s.name,
        kind: s.kind,
        service: s.service,
        depth: r.depth,
        offset_ms: r.offsetMs,
        duration_ms: r.durationMs,
        self_ms: r.selfMs,
        critical: r.critical,
        status: s.status,
        details: spanDetails(r.node, agentService),
        attributes: s.attributes,
        source: s.source,
      };
    }),
  };
}

// The rollout's own service: the first gym.rollout's (the view may start at the collector's call).
function agentServiceOf(tree: SpanTree): string {
  const rollout = tree.rows.find((r) => r.node.span.name === SPAN.ROLLOUT);
  return (rollout ?? tree.rows[0])?.node.span.service ?? '';
}

function guides(row: TreeRow): string {
  if (row.depth === 0) return '';
  return `${row.guides.map((g) => (g ? '│  ' : '   ')).join('')}${row.last ? '└─ ' : '├─ '}`;
}

// the tree guides stay whole while the name has room; the name is elided in the middle
function label(row: TreeRow, width: number): string {
  const g = guides(row);
  const room = width - g.length;
  return room >= 8 ? g + elide(row.node.span.name, room) : elide(g + row.node.span.name, width);
}
