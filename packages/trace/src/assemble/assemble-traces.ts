/**
 * Groups spans by trace id and links parents to children by span id, across files and processes.
 * @module
 */
import { isTruncated, nsToMs } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';
import type { DuplicateSpan, SpanNode, Trace, TraceSet } from './trace-model.js';

const MAX_DUPLICATE_EXAMPLES = 20;

// Most spans are leaves: they share one empty list and get their own on their first child (only
// `link` adds children, and never to this list). Not frozen: V8 iterates a frozen array with
// `for … of` through an iterator object made per loop, and every analysis loops over children —
// a third of the garbage of `stats` over a large run was these iterators.
const NO_CHILDREN: SpanNode[] = [];

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
  const linker = new Linker(options.externalParents ?? null);
  for (const [traceId, nodes] of byTrace) {
    const trace = linker.link(traceId, nodes);
    orphanCount += trace.orphans.length;
    traces.set(traceId, trace);
  }
  return { traces, spanCount, duplicateCount, duplicates, orphanCount };
}

function score(s: SpanRecord): number {
  return (s.ended ? 2 : 0) + (isTruncated(s) ? 0 : 1);
}

// Links the nodes of one trace after another. Its loops over a trace's nodes are `forEach` calls
// of functions made once, not `for … of nodes.values()`: V8 makes an iterator result per span for
// the latter, which showed in the profile.
class Linker {
  readonly #external: ReadonlySet<string> | null;
  // the trace being linked
  #nodes = new Map<string, SpanNode>();
  #roots: SpanNode[] = [];
  #orphans: SpanNode[] = [];
  #services = new Set<string>();
  #startNs: bigint | null = null;
  #endNs: bigint | null = null;

  constructor(external: ReadonlySet<string> | null) {
    this.#external = external;
  }

  link(traceId: string, nodes: Map<string, SpanNode>): Trace {
    this.#nodes = nodes;
    const roots: SpanNode[] = (this.#roots = []);
    const orphans: SpanNode[] = (this.#orphans = []);
    const services = (this.#services = new Set<string>());
    this.#startNs = this.#endNs = null;
    nodes.forEach(this.#linkNode);
    breakCycles(nodes, roots, orphans);
    // most lists are in start order already (spans are mostly written in order): a sort copies
    // the list even then, which showed in the profile
    nodes.forEach(sortChildren);
    if (!sortedByStart(roots)) roots.sort(byStart);
    const start = this.#startNs ?? 0n;
    const end = this.#endNs ?? 0n;
    this.#nodes = NO_NODES;
    return { traceId, nodes, roots, orphans, startNs: start, endNs: end, durationMs: nsToMs(end - start), services: [...services].sort() };
  }

  readonly #linkNode = (node: SpanNode): void => {
    const s = node.span;
    this.#services.add(s.service);
    if (this.#startNs === null || s.startNs < this.#startNs) this.#startNs = s.startNs;
    if (this.#endNs === null || s.endNs > this.#endNs) this.#endNs = s.endNs;
    const pid = s.parentSpanId;
    const parent = pid === null || pid === s.spanId ? undefined : this.#nodes.get(pid);
    if (parent !== undefined) {
      node.parent = parent;
      const siblings = parent.children;
      if (siblings === NO_CHILDREN) parent.children = [node];
      // a second child: a list of two, where a push would make room for 17
      else if (siblings.length === 1) parent.children = [siblings[0]!, node];
      else siblings.push(node);
    } else {
      node.orphan = pid !== null && (this.#external === null || !this.#external.has(pid));
      if (node.orphan) this.#orphans.push(node);
      this.#roots.push(node);
    }
  };
}

const NO_NODES = new Map<string, SpanNode>();

function sortChildren(node: SpanNode): void {
  if (node.children.length > 1 && !sortedByStart(node.children)) node.children.sort(byStart);
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

/**
 * How many spans the subtrees under `roots` hold, the roots included. Indexed loops, one root's
 * subtree on the stack at a time: this runs over every span of a batch, and `for … of` and a copy
 * of the roots showed as allocations in the profile.
 */
export function countFrom(roots: readonly SpanNode[]): number {
  let count = 0;
  const stack: SpanNode[] = [];
  for (let r = 0; r < roots.length; r++) {
    stack.push(roots[r]!);
    while (stack.length > 0) {
      const n = stack.pop()!;
      count++;
      const children = n.children;
      for (let i = 0; i < children.length; i++) stack.push(children[i]!);
    }
  }
  return count;
}

// True when `nodes` is in the order `sort(byStart)` leaves it (a stable sort keeps equal neighbours).
function sortedByStart(nodes: readonly SpanNode[]): boolean {
  for (let i = 1; i < nodes.length; i++) if (byStart(nodes[i - 1]!, nodes[i]!) > 0) return false;
  return true;
}

/** Orders nodes by start time, then by span id for a stable order. */
export function byStart(a: SpanNode, b: SpanNode): number {
  // compared, not subtracted: a bigint difference is an allocation per comparison
  if (a.span.startNs !== b.span.startNs) return a.span.startNs < b.span.startNs ? -1 : 1;
  return a.span.spanId < b.span.spanId ? -1 : a.span.spanId > b.span.spanId ? 1 : 0;
}
