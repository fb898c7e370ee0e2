/**
 * Groups spans by trace id and links parents to children by span id, across files and processes.
 * @module
 */
import { isTruncated, nsToMs } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';
import type { DuplicateSpan, SpanNode, Trace, TraceSet } from './trace-model.js';

const MAX_DUPLICATE_EXAMPLES = 20;

// Most spans are leaves: they share one empty list (frozen, so that nothing adds to it) and get
// their own on their first child.
const NO_CHILDREN = Object.freeze([]) as unknown as SpanNode[];

/** Options of {@link assembleTraces}. */
export interface AssembleOptions {
  /** Span ids known to exist outside these spans (a run read in partitions). */
  externalParents?: ReadonlySet<string> | null;
}

/**
 * Builds the trace trees. Duplicate span ids (the same span exported twice, or a file read twice)
 * are de-duplicated — the copy that ended and was not truncated wins, else the first — and counted.
 * Spans whose parent is missing are kept as orphans and listed among the roots, unless the parent
 * is one of `options.externalParents` (read with another part of the run): then they are roots, not
 * orphans.
 */
export function assembleTraces(spans: Iterable<SpanRecord>, options: AssembleOptions = {}): TraceSet {
  const byTrace = new Map<string, Map<string, SpanNode>>();
  const duplicates: DuplicateSpan[] = [];
  let duplicateCount = 0;
  let spanCount = 0;
  for (const span of spans) {
    let nodes = byTrace.get(span.traceId);
    if (nodes === undefined) byTrace.set(span.traceId, (nodes = new Map<string, SpanNode>()));
    const prev = nodes.get(span.spanId);
    if (prev !== undefined) {
      duplicateCount++;
      const replace = score(span) > score(prev.span);
      if (duplicates.length < MAX_DUPLICATE_EXAMPLES) {
        duplicates.push({ traceId: span.traceId, spanId: span.spanId, kept: replace ? span.source : prev.span.source, dropped: replace ? prev.span.source : span.source });
      }
      if (replace) prev.span = span;
      continue;
    }
    spanCount++;
    nodes.set(span.spanId, { span, parent: null, children: NO_CHILDREN, orphan: false });
  }
  const traces = new Map<string, Trace>();
  let orphanCount = 0;
  for (const [traceId, nodes] of byTrace) {
    const trace = link(traceId, nodes, options.externalParents ?? null);
    orphanCount += trace.orphans.length;
    traces.set(traceId, trace);
  }
  return { traces, spanCount, duplicateCount, duplicates, orphanCount };
}

function score(s: SpanRecord): number {
  return (s.ended ? 2 : 0) + (isTruncated(s) ? 0 : 1);
}

function link(traceId: string, nodes: Map<string, SpanNode>, external: ReadonlySet<string> | null): Trace {
  const roots: SpanNode[] = [];
  const orphans: SpanNode[] = [];
  const services = new Set<string>();
  let startNs: bigint | null = null;
  let endNs: bigint | null = null;
  for (const node of nodes.values()) {
    const s = node.span;
    services.add(s.service);
    if (startNs === null || s.startNs < startNs) startNs = s.startNs;
    if (endNs === null || s.endNs > endNs) endNs = s.endNs;
    const pid = s.parentSpanId;
    const parent = pid === null || pid === s.spanId ? undefined : nodes.get(pid);
    if (parent !== undefined) {
      node.parent = parent;
      if (parent.children === NO_CHILDREN) parent.children = [node];
      else parent.children.push(node);
    } else {
      node.orphan = pid !== null && (external === null || !external.has(pid));
      if (node.orphan) orphans.push(node);
      roots.push(node);
    }
  }
  breakCycles(nodes, roots, orphans);
  for (const node of nodes.values()) if (node.children.length > 1) node.children.sort(byStart);
  roots.sort(byStart);
  const start = startNs ?? 0n;
  const end = endNs ?? 0n;
  return { traceId, nodes, roots, orphans, startNs: start, endNs: end, durationMs: nsToMs(end - start), services: [...services].sort() };
}

// Garbage input can link spans in a cycle (A's parent is B, B's is A); every walk would loop.
// Nodes unreachable from a root are cut from their parent and kept as orphans.
function breakCycles(nodes: Map<string, SpanNode>, roots: SpanNode[], orphans: SpanNode[]): void {
  // Each node is the child of one parent at most, so a walk from the roots meets none twice: when
  // it meets them all there is no cycle, and no set of every node is needed to say so.
  if (countFrom(roots) === nodes.size) return;
  const seen = new Set<SpanNode>();
  const visit = (start: SpanNode): void => {
    const stack = [start];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      for (const c of n.children) stack.push(c);
    }
  };
  for (const r of roots) visit(r);
  if (seen.size === nodes.size) return;
  for (const node of nodes.values()) {
    if (seen.has(node) || node.parent === null) continue;
    const siblings = node.parent.children;
    siblings.splice(siblings.indexOf(node), 1);
    node.parent = null;
    node.orphan = true;
    orphans.push(node);
    roots.push(node);
    visit(node);
  }
}

function countFrom(roots: readonly SpanNode[]): number {
  let count = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const n = stack.pop()!;
    count++;
    for (const c of n.children) stack.push(c);
  }
  return count;
}

/** Orders nodes by start time, then by span id for a stable order. */
export function byStart(a: SpanNode, b: SpanNode): number {
  // compared, not subtracted: a bigint difference is an allocation per comparison
  if (a.span.startNs !== b.span.startNs) return a.span.startNs < b.span.startNs ? -1 : 1;
  return a.span.spanId < b.span.spanId ? -1 : a.span.spanId > b.span.spanId ? 1 : 0;
}
