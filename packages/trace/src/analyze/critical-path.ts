/**
 * Critical path: the chain of spans that determines a span's end-to-end duration.
 *
 * Standard "last finishing child" walk: from the parent's end, step back to the child that ends
 * last before the cursor, walk into it recursively, move the cursor to that child's start and
 * repeat. Time no child covers (gaps) is the parent's own. The result partitions the root's
 * interval into segments, each owned by exactly one span, so segment lengths sum to the wall time.
 * @module
 */
import type { SpanNode } from '../assemble/trace-model.js';
import { nsToMs } from '../span-record.js';

/** A stretch of the root's interval owned by one span on the critical path. */
export interface CriticalSegment {
  node: SpanNode;
  startNs: bigint;
  endNs: bigint;
}

/** The critical path under one root. */
export interface CriticalPath {
  type: 'critical_path';
  root: SpanNode;
  /** Chronological; contiguous from the root's start to its end. */
  segments: CriticalSegment[];
  /** Span ids of every span the path walks through (including the root). */
  spanIds: Set<string>;
  wallMs: number;
}

/** Computes the critical path of the subtree under `root`. */
export function criticalPath(root: SpanNode): CriticalPath {
  const segments: CriticalSegment[] = [];
  const spanIds = new Set<string>();
  const { startNs, endNs } = root.span;
  if (endNs > startNs) walk(root, startNs, endNs, segments, spanIds);
  else spanIds.add(root.span.spanId);
  segments.reverse();
  return { type: 'critical_path', root, segments, spanIds, wallMs: nsToMs(endNs > startNs ? endNs - startNs : 0n) };
}

// Emits segments newest first, for the window [lo, hi] of `node`.
function walk(node: SpanNode, lo: bigint, hi: bigint, out: CriticalSegment[], ids: Set<string>): void {
  ids.add(node.span.spanId);
  // Sorting by end (desc) once is enough: the cursor only moves back, so "latest clipped end"
  // stays "latest end" among children that start before the cursor.
  const kids = node.children.length === 0 ? node.children : [...node.children].sort(byEndDesc);
  let cursor = hi;
  for (const kid of kids) {
    if (cursor <= lo) break;
    const ks = kid.span.startNs > lo ? kid.span.startNs : lo;
    const ke = kid.span.endNs < cursor ? kid.span.endNs : cursor;
    if (ke <= ks) continue; // entirely after the cursor (already covered) or outside the window
    if (ke < cursor) out.push({ node, startNs: ke, endNs: cursor });
    walk(kid, ks, ke, out, ids);
    cursor = ks;
  }
  if (cursor > lo) out.push({ node, startNs: lo, endNs: cursor });
}

/** Latest end first; of two ending together, the one that started first (it covers more). */
export function byEndDesc(a: SpanNode, b: SpanNode): number {
  if (a.span.endNs !== b.span.endNs) return a.span.endNs > b.span.endNs ? -1 : 1;
  return a.span.startNs < b.span.startNs ? -1 : a.span.startNs > b.span.startNs ? 1 : 0;
}
