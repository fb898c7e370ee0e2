/**
 * Assembled traces: spans linked into trees.
 * @module
 */
import type { SpanRecord } from '../span-record.js';

/** A span in its tree. `children` are sorted by start time. */
export interface SpanNode {
  span: SpanRecord;
  parent: SpanNode | null;
  children: SpanNode[];
  /** True when the span names a parent that is not in the input (kept, shown as a root). */
  orphan: boolean;
}

/** One trace: every span sharing a trace id, across files and processes. */
export interface Trace {
  traceId: string;
  /** By span id. */
  nodes: Map<string, SpanNode>;
  /** True roots and orphans, sorted by start. */
  roots: SpanNode[];
  orphans: SpanNode[];
  startNs: bigint;
  endNs: bigint;
  durationMs: number;
  /** Distinct `service.name`s, sorted. */
  services: string[];
}

/** A span id seen more than once; the copy kept is reported with the one dropped. */
export interface DuplicateSpan {
  traceId: string;
  spanId: string;
  kept: SpanRecord['source'];
  dropped: SpanRecord['source'];
}

/** All traces of a read. */
export interface TraceSet {
  /** By trace id, in order of first appearance. */
  traces: Map<string, Trace>;
  spanCount: number;
  duplicateCount: number;
  /** Up to 20 examples. */
  duplicates: DuplicateSpan[];
  orphanCount: number;
}
