/**
 * `why`: where a rollout's wall time went. Computed on the critical path, so the categories
 * partition the wall time exactly (they sum to it); work that ran in parallel with the
 * critical path and did not delay the end is not counted. The CLIENT time of every hop outside
 * its SERVER child is split by the phases the caller recorded (see `hop-timeline.ts`).
 * @module
 */
import { outermostOf } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { SpanNode } from '../assemble/trace-model.js';
import { nsToMs } from '../span-record.js';
import { calleeOf } from './callee.js';
import { categorizeSubtree, categoryOf, ownCategory, TIME_CATEGORIES } from './categorize.js';
import type { TimeCategory } from './categorize.js';
import { criticalPath } from './critical-path.js';
import type { CriticalPath } from './critical-path.js';
import { hopPhaseDurations, hopTimeline, splitByPhase } from './hop-timeline.js';
import type { HopPhase, HopTimeline } from './hop-timeline.js';
import type { Tally } from './tally.js';
import { CriticalDetail, hopCategory, sumTimeSplit } from './time-split.js';

/** One CLIENT→SERVER hop: the time the caller spent outside the callee's span, in phases. */
export interface NetworkHop {
  clientSpanId: string;
  /** Null when the callee left no SERVER span. */
  serverSpanId: string | null;
  /** Server span name, e.g. `POST /verify` (the CLIENT span's name when there is none). */
  name: string;
  fromService: string;
  /** The callee's service, or its address from `url.full` when it left no span. */
  toService: string;
  clientMs: number;
  serverMs: number;
  /** Server start − client start, as the clocks say (negative = clock skew). */
  beforeMs: number;
  /** Client end − server end, as the clocks say (negative = clock skew). */
  afterMs: number;
  /** True when the caller recorded the phases (`gym.http.phase.*`). */
  phasesRecorded: boolean;
  /** The whole hop in phases (ms), clamped into the CLIENT span. */
  phases: Partial<Record<HopPhase, number>>;
  /** The part of each phase on the rollout's critical path (ms). */
  critical: Partial<Record<HopPhase, number>>;
  /** `gym.http.connection.reused`, null when not recorded. */
  reused: boolean | null;
  connectMs: number;
  /** See {@link HopTimeline.clockSkewMs}: > 0 when the callee's clock disagrees with the caller's. */
  clockSkewMs: number;
  /** The collector's hop around the rollout (categories `collector_send` / `collector_return`). */
  collector: boolean;
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
  /** The service the rollout runs in (the agent). */
  agentService: string;
  startNs: bigint;
  endNs: bigint;
  wallMs: number;
  /** Milliseconds per category; they sum to `wallMs`. */
  categories: Record<TimeCategory, number>;
  /** The `network` category (hops without recorded phases) split into before/after the server span. */
  network: { beforeMs: number; afterMs: number };
  hops: NetworkHop[];
  /** Spans owning critical-path time, largest first. */
  criticalSpans: CriticalSpanShare[];
}

/** Options of {@link attributeTime}. */
export interface AttributionOptions {
  /** The rollout's own service (default: the root's). */
  agentService?: string;
}

// one rollout at a time: reused
const DETAIL = new CriticalDetail();

/** Attributes a rollout from its outermost span (the collector's CLIENT span when present). */
export function attributeRollout(r: Rollout): Attribution {
  return attributeTime(outermostOf(r), r.rolloutId, { agentService: r.node.span.service });
}

/**
 * Attributes the wall time of the subtree under `root` (a `gym.rollout` span, or any span). The
 * sums are taken in numbers of ns as the critical path is walked (`time-split.ts`), exact while
 * the root lasts at most 2^53 ns (104 days); a longer one is summed in bigints.
 */
export function attributeTime(root: SpanNode, rolloutId: string | null = null, options: AttributionOptions = {}): Attribution {
  const agentService = options.agentService ?? root.span.service;
  const detail = DETAIL;
  detail.reset();
  const split = sumTimeSplit(root, agentService, detail);
  if (split === null) return attributeInBigints(root, rolloutId, agentService);
  const criticalSpans: CriticalSpanShare[] = [];
  for (let i = 0; i < detail.spanCount; i++) criticalSpans.push(shareOf(detail.spans[i]!, detail.shares[i]!));
  criticalSpans.sort(byMsDesc);
  const hops = collectHops(root, agentService, detail);
  detail.reset();
  return attribution(root, rolloutId, agentService, split, hops, criticalSpans);
}

function attribution(root: SpanNode, rolloutId: string | null, agentService: string, split: TimeSplit, hops: NetworkHop[], criticalSpans: CriticalSpanShare[]): Attribution {
  return {
    type: 'attribution',
    rolloutId,
    traceId: root.span.traceId,
    rootSpanId: root.span.spanId,
    rootName: root.span.name,
    agentService,
    startNs: root.span.startNs,
    endNs: root.span.endNs,
    wallMs: split.wallMs,
    categories: split.categories,
    network: split.network,
    hops,
    criticalSpans,
  };
}

/** The part of an {@link Attribution} that sums over rollouts (`stats` keeps only these). */
export type TimeSplit = Pick<Attribution, 'wallMs' | 'categories' | 'network'>;

/** {@link attributeRollout} without the spans and hops behind the split: what `stats` sums, for less work. */
export function splitRolloutTime(r: Rollout): TimeSplit {
  const root = outermostOf(r);
  const agentService = r.node.span.service;
  return sumTimeSplit(root, agentService) ?? splitPath(root, agentService, criticalPath(root), categorizeSubtree(root, agentService), new Map(), null);
}

// A span is listed under the category it owns most critical time in (the first of equals).
function shareOf(n: SpanNode, byCat: Tally<TimeCategory>): CriticalSpanShare {
  return { spanId: n.span.spanId, name: n.span.name, service: n.span.service, category: byCat.largestKey('unaccounted'), ms: byCat.total() / 1e6 };
}

function byMsDesc(a: CriticalSpanShare, b: CriticalSpanShare): number {
  return b.ms - a.ms;
}

// Every CLIENT span under `root` as a hop, with what the critical path owned of it (`detail`).
function collectHops(root: SpanNode, agentService: string, detail: CriticalDetail): NetworkHop[] {
  const hops: NetworkHop[] = [];
  // each node with its category (its own, else its parent's; the root's defaults to agent)
  const stack: SpanNode[] = [root];
  const cats: TimeCategory[] = [ownCategory(root.span, agentService) ?? 'agent'];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const cat = cats.pop()!;
    for (const c of n.children) {
      stack.push(c);
      cats.push(categoryOf(c.span, agentService, cat));
    }
    if (n.span.kind !== 'CLIENT') continue;
    const tl = detail.timelineOf(n) ?? hopTimeline(n);
    // Calls to uninstrumented upstreams from inside a model or tool are that server's business.
    if (tl.server === null && cat !== 'agent') continue;
    const c = n.span;
    const s = tl.server?.span ?? null;
    const whole = hopPhaseDurations(tl);
    const crit: Partial<Record<HopPhase, number>> = {};
    const onCritical = detail.criticalOf(n);
    if (onCritical !== undefined) for (let k = 0; k < onCritical.count; k++) crit[onCritical.keys[k]!] = onCritical.values[k]! / 1e6;
    hops.push({
      clientSpanId: c.spanId,
      serverSpanId: s?.spanId ?? null,
      name: s?.name ?? c.name,
      fromService: c.service,
      toService: s?.service ?? calleeOf(c),
      clientMs: c.durationMs,
      serverMs: whole.serverMs,
      beforeMs: s === null ? c.durationMs : nsToMs(s.startNs - c.startNs),
      afterMs: s === null ? 0 : nsToMs(c.endNs - s.endNs),
      phasesRecorded: tl.phases !== null,
      phases: whole.phases,
      critical: crit,
      reused: tl.phases?.reused ?? null,
      connectMs: tl.phases?.connectMs ?? 0,
      clockSkewMs: tl.clockSkewMs,
      collector: n === root && c.service !== agentService,
      onCriticalPath: detail.walked(n),
    });
  }
  return hops.sort(byOutsideDesc);
}

function byOutsideDesc(a: NetworkHop, b: NetworkHop): number {
  return outside(b) - outside(a);
}

function outside(h: NetworkHop): number {
  return h.clientMs - h.serverMs;
}

/**
 * {@link attributeTime} in bigints: what it does for a root longer than 2^53 ns (times of garbage
 * input, mostly). Exported for the tests, which hold the two to the same answer.
 */
export function attributeInBigints(root: SpanNode, rolloutId: string | null, agentService: string): Attribution {
  const path = criticalPath(root);
  const cats = categorizeSubtree(root, agentService);
  const detail: SplitDetail = { perSpan: new Map(), critical: new Map() };
  const timelines = new Map<SpanNode, HopTimeline>();
  const split = splitPath(root, agentService, path, cats, timelines, detail);
  const criticalSpans: CriticalSpanShare[] = [];
  for (const [n, byCat] of detail.perSpan) criticalSpans.push(shareOfBigints(n, byCat));
  criticalSpans.sort(byMsDesc);
  // collectHops takes ns as numbers and divides them by 1e6: what nsToMs does with a bigint
  const hopsDetail = new CriticalDetail();
  for (const n of cats.keys()) if (path.spanIds.has(n.span.spanId)) hopsDetail.walk(n);
  for (const [n, phases] of detail.critical) {
    const critical = hopsDetail.criticalAt(hopsDetail.client(n, cats.get(n) ?? 'unaccounted', timelines.get(n)));
    for (const p in phases) critical.add(p as HopPhase, Number(phases[p as HopPhase]!));
  }
  return attribution(root, rolloutId, agentService, split, collectHops(root, agentService, hopsDetail), criticalSpans);
}

// What the spans of the critical path owned: kept for `why`, not for the sums alone.
interface SplitDetail {
  perSpan: Map<SpanNode, Map<TimeCategory, bigint>>;
  critical: Map<SpanNode, Partial<Record<HopPhase, bigint>>>;
}

// The critical path's time by category; with `detail`, also by span and by hop phase.
function splitPath(root: SpanNode, agentService: string, path: CriticalPath, cats: Map<SpanNode, TimeCategory>, timelines: Map<SpanNode, HopTimeline>, detail: SplitDetail | null): TimeSplit {
  const ns = zeroNs();
  let beforeNs = 0n;
  let afterNs = 0n;
  const perSpan = detail?.perSpan ?? null;
  for (const seg of path.segments) {
    const len = seg.endNs - seg.startNs;
    const node = seg.node;
    const inherited = cats.get(node) ?? 'unaccounted';
    if (node.span.kind !== 'CLIENT') {
      own(ns, perSpan, node, inherited, len);
      continue;
    }
    let tl = timelines.get(node);
    if (tl === undefined) timelines.set(node, (tl = hopTimeline(node)));
    const collector = node === root && node.span.service !== agentService;
    let acc: Partial<Record<HopPhase, bigint>> | undefined;
    if (detail !== null) {
      acc = detail.critical.get(node);
      if (acc === undefined) detail.critical.set(node, (acc = {}));
    }
    for (const [phase, n] of splitByPhase(tl, seg.startNs, seg.endNs)) {
      if (acc !== undefined) acc[phase] = (acc[phase] ?? 0n) + n;
      if (phase === 'network_before') beforeNs += n;
      if (phase === 'network_after') afterNs += n;
      own(ns, perSpan, node, hopCategory(phase, collector, inherited), n);
    }
  }
  const categories = {} as Record<TimeCategory, number>;
  for (const c of TIME_CATEGORIES) categories[c] = nsToMs(ns[c]);
  return { wallMs: path.wallMs, categories, network: { beforeMs: nsToMs(beforeNs), afterMs: nsToMs(afterNs) } };
}

function zeroNs(): Record<TimeCategory, bigint> {
  const ns = {} as Record<TimeCategory, bigint>;
  for (const c of TIME_CATEGORIES) ns[c] = 0n;
  return ns;
}

// `len` of critical time owned by `node` in category `cat` (a function, not a closure per rollout:
// under tsx every closure made is also named, at a cost that showed in the profile)
function own(ns: Record<TimeCategory, bigint>, perSpan: Map<SpanNode, Map<TimeCategory, bigint>> | null, node: SpanNode, cat: TimeCategory, len: bigint): void {
  ns[cat] += len;
  if (perSpan === null) return;
  let byCat = perSpan.get(node);
  if (byCat === undefined) perSpan.set(node, (byCat = new Map<TimeCategory, bigint>()));
  byCat.set(cat, (byCat.get(cat) ?? 0n) + len);
}

function shareOfBigints(n: SpanNode, byCat: Map<TimeCategory, bigint>): CriticalSpanShare {
  let total = 0n;
  let category: TimeCategory = 'unaccounted';
  let most = -1n;
  for (const [c, v] of byCat) {
    total += v;
    if (v > most) [most, category] = [v, c];
  }
  return { spanId: n.span.spanId, name: n.span.name, service: n.span.service, category, ms: nsToMs(total) };
}
