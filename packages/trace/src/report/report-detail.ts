/**
 * One rollout's waterfall for the report: its spans in tree order with offsets, self time,
 * critical-path flag and time category, plus the rollout's time split. Attribute values are cut to
 * a bounded size; they are untrusted text and the page only ever shows them as text.
 * @module
 */
import type { Attribution } from '../analyze/attribution.js';
import { categorizeSubtree, serverChildOf } from '../analyze/categorize.js';
import type { TimeCategory } from '../analyze/categorize.js';
import { hopTimeline } from '../analyze/hop-timeline.js';
import { failedWithoutAnswer } from '../analyze/unanswered.js';
import { buildSpanTree } from '../analyze/span-tree.js';
import type { SpanNode } from '../assemble/trace-model.js';
import { ATTR, isTruncated } from '../span-record.js';
import type { AttributeValue } from '../span-record.js';

/** One waterfall row. Times in ms; `offsetMs` from the start of the view. */
export interface ReportSpan {
  id: string;
  depth: number;
  name: string;
  service: string;
  kind: string;
  offsetMs: number;
  durationMs: number;
  selfMs: number;
  critical: boolean;
  category: TimeCategory;
  status: string;
  statusMessage: string | null;
  /** `never ended`, `truncated`, `orphan`, `new connection`. */
  flags: string[];
  /**
   * A CLIENT span's recorded phases as [category or `callee`, offset ms from the view's start,
   * duration ms], drawn inside its bar; null for other spans and CLIENT spans without phases.
   */
  phases: Array<[string, number, number]> | null;
  /** Stringified, at most {@link MAX_ATTRIBUTES} entries of at most {@link MAX_VALUE_CHARS} characters. */
  attributes: Array<[string, string]>;
  events: string[];
}

/** A rollout's waterfall and time split. */
export interface ReportDetail {
  wallMs: number;
  categories: Record<TimeCategory, number>;
  spans: ReportSpan[];
  /** Spans left out by the per-waterfall limit. */
  omitted: number;
}

/** Attributes kept per span. */
export const MAX_ATTRIBUTES = 64;
/** Characters kept per attribute value. */
export const MAX_VALUE_CHARS = 500;
const MAX_EVENTS = 20;

/** Builds the waterfall of `roots` (at most `maxSpans` rows). */
export function buildDetail(roots: readonly SpanNode[], attribution: Attribution, maxSpans: number): ReportDetail {
  const tree = buildSpanTree(roots, { maxRows: maxSpans });
  const cats = new Map<SpanNode, TimeCategory>();
  for (const r of roots) for (const [n, c] of categorizeSubtree(r, attribution.agentService)) cats.set(n, c);
  const spans = tree.rows.map((row): ReportSpan => {
    const s = row.node.span;
    const phases = phaseSegments(row.node, tree.startNs);
    const reused = s.attributes[ATTR.HTTP_CONNECTION_REUSED];
    const flags = [!s.ended ? 'never ended' : '', isTruncated(s) ? 'truncated' : '', row.node.orphan ? 'orphan' : '', reused === false ? 'new connection' : ''].filter(Boolean);
    return {
      id: s.spanId,
      depth: row.depth,
      name: s.name,
      service: s.service,
      kind: s.kind,
      offsetMs: row.offsetMs,
      durationMs: row.durationMs,
      selfMs: row.selfMs,
      critical: row.critical,
      category: phases === null ? barCategory(row.node, cats.get(row.node) ?? 'agent') : dominant(phases),
      phases,
      status: s.status.code,
      statusMessage: s.status.message ?? null,
      flags,
      attributes: Object.entries(s.attributes)
        .slice(0, MAX_ATTRIBUTES)
        .map(([k, v]) => [k, cut(valueText(v))]),
      events: s.events.slice(0, MAX_EVENTS).map((e) => cut(e.name)),
    };
  });
  return { wallMs: tree.wallMs, categories: attribution.categories, spans, omitted: tree.omitted };
}

/** True when any of `nodes` has status ERROR. */
export function hasError(nodes: readonly SpanNode[]): boolean {
  return nodes.some((n) => n.span.status.code === 'ERROR');
}

// A CLIENT bar with recorded phases is drawn in them, on the view's time axis.
function phaseSegments(node: SpanNode, viewStartNs: bigint): Array<[string, number, number]> | null {
  if (node.span.kind !== 'CLIENT') return null;
  const tl = hopTimeline(node);
  if (tl.phases === null) return null;
  const { startNs, endNs } = node.span;
  const cuts: Array<[string, bigint, bigint]> = [
    ['retries', startNs, tl.attemptNs],
    ['caller_queue', tl.attemptNs, tl.queuedEndNs],
    ['connect', tl.queuedEndNs, tl.connectedNs],
    ...(tl.server === null
      ? [[tl.unanswered ? 'retries' : 'unaccounted', tl.connectedNs, endNs] as [string, bigint, bigint]]
      : ([
          ['transit', tl.connectedNs, tl.serverStartNs],
          ['callee', tl.serverStartNs, tl.serverEndNs],
          ['return', tl.serverEndNs, endNs],
        ] as Array<[string, bigint, bigint]>)),
  ];
  return cuts.filter(([, a, b]) => b > a).map(([c, a, b]) => [c, Number(a - viewStartNs) / 1e6, Number(b - a) / 1e6]);
}

// The category a phased CLIENT span is listed under: its longest phase outside the callee.
function dominant(phases: Array<[string, number, number]>): TimeCategory {
  let best: [string, number, number] | undefined;
  for (const p of phases) if (p[0] !== 'callee' && (best === undefined || p[2] > best[2])) best = p;
  return (best?.[0] ?? 'transit') as TimeCategory;
}

// The colour of a CLIENT bar without phases follows `why`: the wait around its SERVER child is
// network time; a call that never reached a server is retries; another agent call with no SERVER
// child is unaccounted.
function barCategory(node: SpanNode, cat: TimeCategory): TimeCategory {
  if (node.span.kind !== 'CLIENT') return cat;
  if (serverChildOf(node) !== null) return 'network';
  if (failedWithoutAnswer(node.span)) return 'retries';
  return cat === 'agent' ? 'unaccounted' : cat;
}

function valueText(v: AttributeValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function cut(s: string): string {
  return s.length > MAX_VALUE_CHARS ? `${s.slice(0, MAX_VALUE_CHARS)}… (${s.length} chars)` : s;
}
