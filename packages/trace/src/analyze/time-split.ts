/**
 * A rollout's critical-path time by category, summed as the critical path is walked: what `stats`
 * adds up for every rollout of a run. It gives what `attributeTime` gives for the same root
 * (`wallMs`, `categories`, `network`), without the segment list, the per-span category map and
 * the per-span shares that only `why` prints, and with the sums in numbers rather than bigints
 * (each bigint operation is an allocation): when the root lasts at most 2^53 ns (104 days), every
 * piece of it and every sum of pieces is an integer a double holds exactly.
 * @module
 */
import type { SpanNode } from '../assemble/trace-model.js';
import type { TimeSplit } from './attribution.js';
import { MAX_EXACT_NS } from '../span-record.js';
import { categoryOf, ownCategory, TIME_CATEGORIES } from './categorize.js';
import { byEndDesc } from './critical-path.js';
import type { TimeCategory } from './categorize.js';
import { emptyClientPhases } from './client-phases.js';
import type { ClientPhases } from './client-phases.js';
import { clearHopTimeline, emptyHopTimeline, fillHopTimeline, HopCuts, NO_NODE, phaseAt } from './hop-timeline.js';
import type { HopPhase, HopTimeline } from './hop-timeline.js';
import { Tally } from './tally.js';

const CATEGORY_INDEX = new Map<TimeCategory, number>(TIME_CATEGORIES.map((c, i) => [c, i]));

/** Slot of {@link walkTimeSplit}'s sums: the `network` time before the SERVER span (slots before it: the categories, in {@link TIME_CATEGORIES} order). */
export const SPLIT_BEFORE = TIME_CATEGORIES.length;
/** Slot of {@link walkTimeSplit}'s sums: the `network` time after the SERVER span. */
export const SPLIT_AFTER = SPLIT_BEFORE + 1;
/** Slot of {@link walkTimeSplit}'s sums: the root's wall time. */
export const SPLIT_WALL = SPLIT_AFTER + 1;
const SUMS = new Float64Array(SPLIT_WALL + 1);
// children of one span sorted in the walk's own list; more (a `gym.job` over a whole run) are sorted in a copy
const MAX_SORTED_IN_PLACE = 16;
// what the reused lists hold once emptied
const NO_TIMELINE = null as unknown as HopTimeline;

/** The category of a piece of CLIENT time: its phase, or for the collector's hop which side of /run. */
export function hopCategory(phase: HopPhase, collector: boolean, inherited: TimeCategory): TimeCategory {
  if (phase === 'no_server') return inherited === 'agent' ? 'unaccounted' : inherited;
  // A call out of a model, tool or verifier to something uninstrumented is that category's time.
  if (collector) return phase === 'return' || phase === 'network_after' ? 'collector_return' : 'collector_send';
  switch (phase) {
    case 'network_before':
    case 'network_after':
      return 'network';
    default:
      return phase;
  }
}

/**
 * What `why` keeps of the walk besides the sums, in ns: per span of the critical path its time by
 * category, per CLIENT span its critical time by hop phase (both in the order first owned), the
 * hop timelines built, and every span the path walks through. A rollout has a handful of each:
 * they are kept in lists searched from the start, and one instance, its tallies included, serves
 * rollout after rollout ({@link CriticalDetail.reset}).
 */
export class CriticalDetail {
  /** The spans owning critical time, in the order first owned; `spanCount` of them. */
  readonly spans: SpanNode[] = [];
  /** Per span of {@link spans}: its ns by category, in the order first owned. */
  readonly shares: Array<Tally<TimeCategory>> = [];
  spanCount = 0;
  readonly #clients: SpanNode[] = [];
  readonly #critical: Array<Tally<HopPhase>> = [];
  readonly #timelines: HopTimeline[] = [];
  // the timelines this detail built, one per client slot, filled again (their phases too) for the next rollout's hops
  readonly #ownTimelines: HopTimeline[] = [];
  readonly #ownPhases: ClientPhases[] = [];
  readonly #inherited: TimeCategory[] = [];
  #clientCount = 0;
  readonly #walked: SpanNode[] = [];
  #walkedCount = 0;

  /** Empties it, keeping no reference to the spans of the last rollout. */
  reset(): void {
    // the tallies hold names and numbers only: kept for the next rollout
    for (let i = 0; i < this.spanCount; i++) this.spans[i] = NO_NODE;
    for (let i = 0; i < this.#clientCount; i++) {
      this.#clients[i] = NO_NODE;
      this.#timelines[i] = NO_TIMELINE;
      if (this.#ownTimelines[i] !== undefined) clearHopTimeline(this.#ownTimelines[i]!);
    }
    for (let i = 0; i < this.#walkedCount; i++) this.#walked[i] = NO_NODE;
    this.spanCount = this.#clientCount = this.#walkedCount = 0;
  }

  /** Notes that the critical path walks through `node`. */
  walk(node: SpanNode): void {
    this.#walked[this.#walkedCount++] = node;
  }

  /** True when the critical path walks through `node`. */
  walked(node: SpanNode): boolean {
    for (let i = 0; i < this.#walkedCount; i++) if (this.#walked[i] === node) return true;
    return false;
  }

  /** Adds `len` ns of critical time in `cat` to `node`. */
  own(node: SpanNode, cat: TimeCategory, len: number): void {
    let i = 0;
    while (i < this.spanCount && this.spans[i] !== node) i++;
    if (i === this.spanCount) {
      this.spans[i] = node;
      (this.shares[i] ??= new Tally()).clear();
      this.spanCount++;
    }
    this.shares[i]!.add(cat, len);
  }

  /**
   * The index of the CLIENT span `node`, added when first asked for with its timeline (`timeline`,
   * else built), the category it inherits (`inherited`: its own, else its parent's) and no
   * critical time yet; read it with {@link timelineAt}, {@link criticalAt} and {@link inheritedAt}.
   */
  client(node: SpanNode, inherited: TimeCategory, timeline?: HopTimeline): number {
    const i = this.#clientIndex(node);
    if (i >= 0) return i;
    const at = this.#clientCount++;
    this.#clients[at] = node;
    this.#timelines[at] = timeline ?? fillHopTimeline((this.#ownTimelines[at] ??= emptyHopTimeline()), node, (this.#ownPhases[at] ??= emptyClientPhases()));
    this.#inherited[at] = inherited;
    (this.#critical[at] ??= new Tally()).clear();
    return at;
  }

  /** The number of CLIENT spans added by {@link client}, in the order added. */
  get clientCount(): number {
    return this.#clientCount;
  }

  inheritedAt(i: number): TimeCategory {
    return this.#inherited[i]!;
  }

  timelineAt(i: number): HopTimeline {
    return this.#timelines[i]!;
  }

  /** The critical ns by phase of the CLIENT span `i`, in the order first owned. */
  criticalAt(i: number): Tally<HopPhase> {
    return this.#critical[i]!;
  }

  /** The index {@link client} gave the CLIENT span `node`, or -1. */
  clientIndexOf(node: SpanNode): number {
    return this.#clientIndex(node);
  }

  /** The timeline of the CLIENT span `node`, if it was built. */
  timelineOf(node: SpanNode): HopTimeline | undefined {
    const i = this.#clientIndex(node);
    return i < 0 ? undefined : this.#timelines[i];
  }

  /** The critical ns by phase of the CLIENT span `node`, if it owned critical time. */
  criticalOf(node: SpanNode): Tally<HopPhase> | undefined {
    const i = this.#clientIndex(node);
    return i < 0 ? undefined : this.#critical[i];
  }

  #clientIndex(node: SpanNode): number {
    for (let i = 0; i < this.#clientCount; i++) if (this.#clients[i] === node) return i;
    return -1;
  }
}

/**
 * The time split of the subtree under `root`, whose agent runs in `agentService`; with `detail`,
 * also what each span of the critical path owned. Null when the root lasts more than 2^53 ns
 * (the sums would not be exact in numbers).
 */
export function sumTimeSplit(root: SpanNode, agentService: string, detail: CriticalDetail | null = null): TimeSplit | null {
  const sums = walkTimeSplit(root, agentService, detail);
  if (sums === null) return null;
  const categories = {} as Record<TimeCategory, number>;
  for (let i = 0; i < TIME_CATEGORIES.length; i++) categories[TIME_CATEGORIES[i]!] = sums[i]! / 1e6;
  return { wallMs: sums[SPLIT_WALL]! / 1e6, categories, network: { beforeMs: sums[SPLIT_BEFORE]! / 1e6, afterMs: sums[SPLIT_AFTER]! / 1e6 } };
}

/**
 * {@link sumTimeSplit} as ns in slots, for callers that add them into sums of their own without
 * an object per rollout: the categories in {@link TIME_CATEGORIES} order, then
 * {@link SPLIT_BEFORE}, {@link SPLIT_AFTER} and {@link SPLIT_WALL}. The same array on every call:
 * read it before the next. Null when the root lasts more than 2^53 ns.
 */
export function walkTimeSplit(root: SpanNode, agentService: string, detail: CriticalDetail | null = null): Float64Array | null {
  const { startNs, endNs } = root.span;
  const wall = endNs > startNs ? endNs - startNs : 0n;
  if (wall > MAX_EXACT_NS) return null;
  const sums = SUMS.fill(0);
  if (wall > 0n) WALK.run(root, agentService, detail, ownCategory(root.span, agentService) ?? 'agent', startNs, endNs);
  else detail?.walk(root);
  sums[SPLIT_WALL] = Number(wall);
  return sums;
}

/** The slot of `category` in {@link walkTimeSplit}'s sums. */
export function splitSlotOf(category: TimeCategory): number {
  return CATEGORY_INDEX.get(category)!;
}

// The "last finishing child" walk of `critical-path.ts`: from a span's end, step back to the child
// that ends last before the cursor, walk into it, move the cursor to its start, repeat; time no
// child covers is the span's own. Each stretch a span owns is added to the sums as it is found;
// with detail, the stretches are kept and taken in time order (the order spans are listed in).
// One walk at a time (it does not call itself again), so its sums and lists are reused: no
// allocation per rollout for them.
class Walk {
  #root: SpanNode | null = null;
  #agentService = '';
  readonly #sums: Float64Array;
  #detail: CriticalDetail | null = null;
  readonly #cuts = new HopCuts();
  // the stretches, newest first (with detail only): `#count` of them
  readonly #nodes: Array<SpanNode | null> = [];
  readonly #cats: TimeCategory[] = [];
  readonly #from: bigint[] = [];
  readonly #to: bigint[] = [];
  #count = 0;
  // without detail: the timelines of the CLIENT spans on the path being walked (a CLIENT span's
  // stretches are taken before and after its callee's), `#clientDepth` of them, filled again for
  // the next rollout's
  readonly #clientNodes: Array<SpanNode | null> = [];
  readonly #clientTimelines: HopTimeline[] = [];
  readonly #clientPhases: ClientPhases[] = [];
  #clientDepth = 0;
  // the children of the spans being walked, each span's sorted by end (desc) above its parent's:
  // `#kidsTop` in use, `#kidsUsed` filled since the walk began
  readonly #kids: Array<SpanNode | null> = [];
  #kidsTop = 0;
  #kidsUsed = 0;

  constructor(sums: Float64Array) {
    this.#sums = sums;
  }

  run(root: SpanNode, agentService: string, detail: CriticalDetail | null, cat: TimeCategory, lo: bigint, hi: bigint): void {
    this.#root = root;
    this.#agentService = agentService;
    this.#detail = detail;
    this.#count = 0;
    try {
      this.#node(root, cat, lo, hi);
      for (let i = this.#count - 1; i >= 0; i--) this.#take(this.#nodes[i]!, this.#cats[i]!, this.#from[i]!, this.#to[i]!);
    } finally {
      // nothing of this rollout is kept alive by the reused walk
      this.#root = this.#detail = null;
      while (this.#clientDepth > 0) this.#popClient();
      for (let i = 0; i < this.#count; i++) this.#nodes[i] = null;
      for (let i = 0; i < this.#kidsUsed; i++) this.#kids[i] = null;
      this.#count = this.#kidsTop = this.#kidsUsed = 0;
    }
  }

  // the window [lo, hi] of `node`, whose category is `cat`
  #node(node: SpanNode, cat: TimeCategory, lo: bigint, hi: bigint): void {
    this.#detail?.walk(node);
    const n = node.children.length;
    // sorted by end (desc) once: the cursor only moves back
    const top = this.#kidsTop;
    let kids: ReadonlyArray<SpanNode | null> = node.children;
    let base = 0;
    if (n > MAX_SORTED_IN_PLACE) kids = [...node.children].sort(byEndDesc);
    else if (n > 1) {
      kids = this.#kids;
      base = top;
      this.#sortKids(node.children, base);
    }
    let cursor = hi;
    for (let i = 0; i < n; i++) {
      if (cursor <= lo) break;
      const kid = kids[base + i]!;
      const ks = kid.span.startNs > lo ? kid.span.startNs : lo;
      const ke = kid.span.endNs < cursor ? kid.span.endNs : cursor;
      if (ke <= ks) continue;
      if (ke < cursor) this.#stretch(node, cat, ke, cursor);
      this.#node(kid, categoryOf(kid.span, this.#agentService, cat), ks, ke);
      cursor = ks;
    }
    if (cursor > lo) this.#stretch(node, cat, lo, cursor);
    this.#kidsTop = top;
    if (this.#clientDepth > 0 && this.#clientNodes[this.#clientDepth - 1] === node) this.#popClient();
  }

  // `children` sorted by end (desc) into #kids from `base`, as a stable sort by byEndDesc would.
  // Inserted last first: children are sorted by start, so the latest end usually comes last and
  // each insertion stops at once; one inserted before all its equals keeps their order.
  #sortKids(children: readonly SpanNode[], base: number): void {
    const kids = this.#kids;
    const n = children.length;
    for (let j = n - 1; j >= 0; j--) {
      const x = children[j]!;
      let k = base + (n - 1 - j);
      while (k > base && byEndDesc(kids[k - 1]!, x) >= 0) {
        kids[k] = kids[k - 1]!;
        k--;
      }
      kids[k] = x;
    }
    this.#kidsTop = base + n;
    if (this.#kidsTop > this.#kidsUsed) this.#kidsUsed = this.#kidsTop;
  }

  #stretch(node: SpanNode, cat: TimeCategory, a: bigint, b: bigint): void {
    if (this.#detail === null) return this.#take(node, cat, a, b);
    const i = this.#count++;
    this.#nodes[i] = node;
    this.#cats[i] = cat;
    this.#from[i] = a;
    this.#to[i] = b;
  }

  // [a, b) of `node`'s own time; a CLIENT span's is split at its hop's instants
  #take(node: SpanNode, cat: TimeCategory, a: bigint, b: bigint): void {
    const sums = this.#sums;
    if (node.span.kind !== 'CLIENT') {
      const len = Number(b - a);
      sums[CATEGORY_INDEX.get(cat)!]! += len;
      if (this.#detail !== null) this.#detail.own(node, cat, len);
      return;
    }
    const detail = this.#detail;
    const client = detail === null ? -1 : detail.client(node, cat);
    const tl = detail === null ? this.#timeline(node) : detail.timelineAt(client);
    const critical = detail === null ? undefined : detail.criticalAt(client);
    const collector = node === this.#root && node.span.service !== this.#agentService;
    const cuts = this.#cuts;
    cuts.fill(tl, a, b);
    let from = a;
    for (let k = 0; k < cuts.count; k++) {
      const to = cuts.at[k]!;
      if (to <= from) continue;
      const phase = phaseAt(tl, from);
      const len = Number(to - from);
      const category = hopCategory(phase, collector, cat);
      sums[CATEGORY_INDEX.get(category)!]! += len;
      if (phase === 'network_before') sums[SPLIT_BEFORE]! += len;
      else if (phase === 'network_after') sums[SPLIT_AFTER]! += len;
      if (critical !== undefined) {
        critical.add(phase, len);
        this.#detail!.own(node, category, len);
      }
      from = to;
    }
  }

  // without detail, where no list keeps them: the timeline of a CLIENT span on the path, filled when first asked for
  #timeline(node: SpanNode): HopTimeline {
    for (let i = this.#clientDepth - 1; i >= 0; i--) if (this.#clientNodes[i] === node) return this.#clientTimelines[i]!;
    const d = this.#clientDepth++;
    this.#clientNodes[d] = node;
    return fillHopTimeline((this.#clientTimelines[d] ??= emptyHopTimeline()), node, (this.#clientPhases[d] ??= emptyClientPhases()));
  }

  #popClient(): void {
    const d = --this.#clientDepth;
    this.#clientNodes[d] = null;
    clearHopTimeline(this.#clientTimelines[d]!);
  }
}

const WALK = new Walk(SUMS);
