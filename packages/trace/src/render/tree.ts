/**
 * Renders a {@link SpanTree} as the DESIGN §1 picture (text, optionally coloured), as Markdown
 * (the same picture in a code block) or as JSON.
 * @module
 */
import type { SpanTree, TreeRow } from '../analyze/span-tree.js';
import { nsToIso } from '../read/time.js';
import { SPAN } from '../span-record.js';
import { displayService, fit, formatMs, paint } from './format.js';
import { barText, hasPhaseBar, PHASE_LEGEND } from './phase-bar.js';
import { spanDetails } from './span-details.js';

/** Options of the tree renderers. */
export interface TreeRenderOptions {
  /** ANSI colour (the CLI passes `process.stdout.isTTY`). Default false. */
  color?: boolean;
  /** Width of the waterfall bar in characters. Default 40. */
  barWidth?: number;
  /** A heading line printed above the tree. */
  title?: string;
}

const MAX_LABEL = 56;

/** The text picture: critical-path marker, tree, service, duration, waterfall bar, details. */
export function renderTreeText(tree: SpanTree, options: TreeRenderOptions = {}): string {
  const p = paint(options.color ?? false);
  const width = options.barWidth ?? 40;
  const agentService = agentServiceOf(tree);
  const labels = tree.rows.map(label);
  const labelW = Math.min(MAX_LABEL, Math.max(4, ...labels.map((l) => l.length)));
  const serviceW = Math.min(24, Math.max(7, ...tree.rows.map((r) => displayService(r.node.span.service).length)));
  const lines: string[] = [];
  if (options.title !== undefined) lines.push(p.bold(options.title));
  tree.rows.forEach((row, i) => {
    const s = row.node.span;
    const mark = row.critical ? p.yellow('*') : ' ';
    const name = fit(labels[i]!, labelW);
    const details = spanDetails(row.node, agentService).join(', ');
    const text = [
      mark,
      s.status.code === 'ERROR' ? p.red(name) : row.critical ? p.bold(name) : name,
      p.dim(fit(displayService(s.service), serviceW)),
      formatMs(row.durationMs).padStart(8),
      `|${barText(row, tree, width)}|`,
      details.length > 0 ? p.cyan(details) : '',
    ].join(' ');
    lines.push(text.trimEnd());
  });
  if (tree.omitted > 0) lines.push(p.dim(`  … ${tree.omitted} more spans not shown (raise --max-spans)`));
  lines.push(p.dim(`* = on the critical path; bar = ${formatMs(tree.wallMs)} from ${nsToIso(tree.startNs)}`));
  if (tree.rows.some(hasPhaseBar)) lines.push(p.dim(PHASE_LEGEND));
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
  const rollout = tree.rows.find((r) => r.node.span.name === SPAN.rollout);
  return (rollout ?? tree.rows[0])?.node.span.service ?? '';
}

function label(row: TreeRow): string {
  if (row.depth === 0) return row.node.span.name;
  const guides = row.guides.map((g) => (g ? '│  ' : '   ')).join('');
  return `${guides}${row.last ? '└─ ' : '├─ '}${row.node.span.name}`;
}
