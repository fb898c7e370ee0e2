/**
 * Self time: the part of a span's duration not covered by any of its children.
 * @module
 */
import type { SpanNode } from '../assemble/trace-model.js';
import { MAX_EXACT_NS } from '../span-record.js';

/**
 * Self time of `node` in nanoseconds: its duration minus the union of its children's intervals,
 * each clipped to the span (parallel children are not double-subtracted; a child running past
 * its parent's end only covers up to that end).
 */
export function selfTimeNs(node: SpanNode): bigint {
  const { startNs, endNs } = node.span;
  if (endNs <= startNs) return 0n;
  let covered = 0n;
  let cursor = startNs; // children are sorted by start, so one sweep merges the intervals
  for (const c of node.children) {
    const s = c.span.startNs > cursor ? c.span.startNs : cursor;
    const e = c.span.endNs < endNs ? c.span.endNs : endNs;
    if (e > s) {
      covered += e - s;
      cursor = e;
    }
  }
  return endNs - startNs - covered;
}

/**
 * {@link selfTimeNs} as a number of ns, with one bigint made per child rather than two (each
 * bigint operation is an allocation): exact, as the span lasts at most 2^53 ns (104 days). Null
 * for a longer span (use {@link selfTimeNs}).
 */
export function selfTimeNumber(node: SpanNode): number | null {
  const { startNs, endNs } = node.span;
  if (endNs <= startNs) return 0;
  const duration = endNs - startNs;
  if (duration > MAX_EXACT_NS) return null;
  let covered = 0;
  let cursor = startNs;
  for (const c of node.children) {
    const s = c.span.startNs > cursor ? c.span.startNs : cursor;
    const e = c.span.endNs < endNs ? c.span.endNs : endNs;
    if (e > s) {
      covered += Number(e - s);
      cursor = e;
    }
  }
  return Number(duration) - covered;
}
