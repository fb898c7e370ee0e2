/**
 * `why`: where a rollout's wall time went. Computed on the critical path, so the categories
 * partition the wall time exactly (they sum to it); work that ran in parallel with the
 * critical path and did not delay the end is not counted.
 * @module
 */
import type { SpanNode } from '../assemble/trace-model.js';
import { nsToMs } from '../span-record.js';
import { categorizeSubtree, serverChildOf, TIME_CATEGORIES } from './categorize.js';
import type { TimeCategory } from './categorize.js';
import { criticalPath } from './critical-path.js';

/** One CLIENT→SERVER hop: the time the client waited outside the server's span. */
export interface NetworkHop {
  clientSpanId: string;
  serverSpanId: string;
  /** Server span name, e.g. `POST /verify`. */
  name: string;
  fromService: string;
  toService: string;
  clientMs: number;
  serverMs: number;
  /** Server start − client start: connect, send, queueing before the handler. Negative = clock skew. */
  beforeMs: number;
  /** Client end − server end: response transfer and client-side parsing. Negative = clock skew. */
  afterMs: number;
  onCriticalPath: boolean;
}

/** A span's share of the critical path. */
export interface CriticalSpanShare {
  spanId: string;
  name: string;
  service: string;
  category: TimeCategory;
  /** Sum of the critical-path segments this span owns (its critical self time). */
  ms: number;
}

/** Time attribution of one rollout (or of a trace root when there is no rollout span). */
export interface Attribution {
  type: 'attribution';
  rolloutId: string | null;
  traceId: string;
  rootSpanId: string;
  rootName: string;
  wallMs: number;
  /** Milliseconds per category; they sum to `wallMs`. */
  categories: Record<TimeCategory, number>;
  /** The `network` category split into before/after the server span. */
  network: { beforeMs: number; afterMs: number };
  hops: NetworkHop[];
  /** Spans owning critical-path time, largest first. */
  criticalSpans: CriticalSpanShare[];
}

/** Attributes the wall time of the subtree under `root` (a `gym.rollout` span, or any span). */
export function attributeTime(root: SpanNode, rolloutId: string | null = null): Attribution {
  const path = criticalPath(root);
  const cats = categorizeSubtree(root);
  const ns = Object.fromEntries(TIME_CATEGORIES.map((c) => [c, 0n])) as Record<TimeCategory, bigint>;
  let beforeNs = 0n;
  let afterNs = 0n;
  const perSpan = new Map<SpanNode, { ns: bigint; category: TimeCategory }>();
  for (const seg of path.segments) {
    const len = seg.endNs - seg.startNs;
    const node = seg.node;
    let cat = cats.get(node) ?? 'unaccounted';
    if (node.span.kind === 'CLIENT') {
      const server = serverChildOf(node);
      if (server !== null) {
        cat = 'network';
        if (seg.endNs <= server.span.startNs) beforeNs += len;
        else afterNs += len;
      } else if (cat === 'agent') {
        // A call out of the agent to something that left no SERVER span: we cannot say what it was.
        cat = 'unaccounted';
      }
    }
    ns[cat] += len;
    const prev = perSpan.get(node);
    if (prev === undefined) perSpan.set(node, { ns: len, category: cat });
    else prev.ns += len;
  }
  const categories = Object.fromEntries(TIME_CATEGORIES.map((c) => [c, nsToMs(ns[c])])) as Record<TimeCategory, number>;
  const criticalSpans = [...perSpan]
    .map(([n, v]) => ({ spanId: n.span.spanId, name: n.span.name, service: n.span.service, category: v.category, ms: nsToMs(v.ns) }))
    .sort((a, b) => b.ms - a.ms);
  return {
    type: 'attribution',
    rolloutId,
    traceId: root.span.traceId,
    rootSpanId: root.span.spanId,
    rootName: root.span.name,
    wallMs: path.wallMs,
    categories,
    network: { beforeMs: nsToMs(beforeNs), afterMs: nsToMs(afterNs) },
    hops: collectHops(root, path.spanIds),
    criticalSpans,
  };
}

function collectHops(root: SpanNode, critical: Set<string>): NetworkHop[] {
  const hops: NetworkHop[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    for (const c of n.children) stack.push(c);
    if (n.span.kind !== 'CLIENT') continue;
    const server = serverChildOf(n);
    if (server === null) continue;
    const c = n.span;
    const s = server.span;
    hops.push({
      clientSpanId: c.spanId,
      serverSpanId: s.spanId,
      name: s.name,
      fromService: c.service,
      toService: s.service,
      clientMs: c.durationMs,
      serverMs: s.durationMs,
      beforeMs: nsToMs(s.startNs - c.startNs),
      afterMs: nsToMs(c.endNs - s.endNs),
      onCriticalPath: critical.has(c.spanId),
    });
  }
  return hops.sort((a, b) => b.beforeMs + b.afterMs - (a.beforeMs + a.afterMs));
}
