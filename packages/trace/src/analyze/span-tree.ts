/**
 * The rows of a tree/waterfall view: depth-first order, with offsets from the view's start,
 * self time and critical-path membership per span.
 * @module
 */
import type { SpanNode } from '../assemble/trace-model.js';
import { nsToMs } from '../span-record.js';
import { criticalPath } from './critical-path.js';
import { selfTimeNs } from './self-time.js';

/** One span in a tree view. */
export interface TreeRow {
  node: SpanNode;
  depth: number;
  /** For each ancestor level below the top (depth 1..depth-1): does that ancestor have later siblings? */
  guides: boolean[];
  /** Is this the last child of its parent? */
  last: boolean;
  /** Start relative to the view's start. */
  offsetMs: number;
  durationMs: number;
  selfMs: number;
  critical: boolean;
}

/** A tree view over one or more roots (a rollout span, or a trace's roots). */
export interface SpanTree {
  type: 'span_tree';
  startNs: bigint;
  endNs: bigint;
  wallMs: number;
  rows: TreeRow[];
  /** Spans not listed because of `maxRows`. */
  omitted: number;
}

/** Options of {@link buildSpanTree}. */
export interface SpanTreeOptions {
  /** Rows listed at most (default: all). Later rows are counted in `omitted`. */
  maxRows?: number;
}

/**
 * Builds the rows under `roots`. The critical path is computed per root and marks the spans that
 * determine each root's duration.
 */
export function buildSpanTree(roots: readonly SpanNode[], options: SpanTreeOptions = {}): SpanTree {
  const max = options.maxRows ?? Number.POSITIVE_INFINITY;
  let startNs: bigint | null = null;
  let endNs: bigint | null = null;
  const critical = new Set<string>();
  for (const r of roots) {
    if (startNs === null || r.span.startNs < startNs) startNs = r.span.startNs;
    if (endNs === null || r.span.endNs > endNs) endNs = r.span.endNs;
    for (const id of criticalPath(r).spanIds) critical.add(id);
  }
  const start = startNs ?? 0n;
  const rows: TreeRow[] = [];
  let omitted = 0;
  const stack: Array<{ node: SpanNode; depth: number; guides: boolean[]; last: boolean }> = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ node: roots[i]!, depth: 0, guides: [], last: i === roots.length - 1 });
  while (stack.length > 0) {
    const { node, depth, guides, last } = stack.pop()!;
    if (rows.length >= max) {
      omitted++;
    } else {
      rows.push({
        node,
        depth,
        guides,
        last,
        offsetMs: nsToMs(node.span.startNs - start),
        durationMs: node.span.durationMs,
        selfMs: nsToMs(selfTimeNs(node)),
        critical: critical.has(node.span.spanId),
      });
    }
    const childGuides = depth === 0 ? [] : [...guides, !last];
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]!, depth: depth + 1, guides: childGuides, last: i === node.children.length - 1 });
  }
  return { type: 'span_tree', startNs: start, endNs: endNs ?? start, wallMs: nsToMs((endNs ?? start) - start), rows, omitted };
}
