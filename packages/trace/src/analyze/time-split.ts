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
import { nsToMs } from '../span-record.js';
import { ownCategory, TIME_CATEGORIES } from './categorize.js';
import type { TimeCategory } from './categorize.js';
import { hopTimeline, phaseAt } from './hop-timeline.js';
import type { HopPhase, HopTimeline } from './hop-timeline.js';

const EXACT = BigInt(Number.MAX_SAFE_INTEGER);
const CATEGORY_INDEX = new Map<TimeCategory, number>(TIME_CATEGORIES.map((c, i) => [c, i]));
// slots after the categories: the `network` time before and after the SERVER span
const BEFORE = TIME_CATEGORIES.length;
const AFTER = BEFORE + 1;

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
 * The time split of the subtree under `root`, whose agent runs in `agentService`; null when the
 * root lasts more than 2^53 ns (the caller computes it in bigints instead).
 */
export function sumTimeSplit(root: SpanNode, agentService: string): TimeSplit | null {
  const { startNs, endNs } = root.span;
  const wall = endNs > startNs ? endNs - startNs : 0n;
  if (wall > EXACT) return null;
  const sums = new Float64Array(AFTER + 1);
  if (wall > 0n) new Walk(root, agentService, sums).node(root, ownCategory(root.span, agentService) ?? 'agent', startNs, endNs);
  const categories = {} as Record<TimeCategory, number>;
  for (let i = 0; i < TIME_CATEGORIES.length; i++) categories[TIME_CATEGORIES[i]!] = sums[i]! / 1e6;
  return { wallMs: nsToMs(wall), categories, network: { beforeMs: sums[BEFORE]! / 1e6, afterMs: sums[AFTER]! / 1e6 } };
}

// The "last finishing child" walk of `critical-path.ts`, adding each stretch a span owns to the
// sums as it is found.
class Walk {
  readonly #root: SpanNode;
  readonly #agentService: string;
  readonly #sums: Float64Array;
  // the phase boundaries inside one stretch of CLIENT time (at most five), reused
  readonly #cuts: bigint[] = [];

  constructor(root: SpanNode, agentService: string, sums: Float64Array) {
    this.#root = root;
    this.#agentService = agentService;
    this.#sums = sums;
  }

  // the window [lo, hi] of `node`, whose category is `cat`
  node(node: SpanNode, cat: TimeCategory, lo: bigint, hi: bigint): void {
    const tl = node.span.kind === 'CLIENT' ? hopTimeline(node) : null;
    const n = node.children.length;
    // sorted by end (desc) once: the cursor only moves back
    const kids = n < 2 ? node.children : [...node.children].sort(byEndDesc);
    let cursor = hi;
    for (let i = 0; i < n; i++) {
      if (cursor <= lo) break;
      const kid = kids[i]!;
      const ks = kid.span.startNs > lo ? kid.span.startNs : lo;
      const ke = kid.span.endNs < cursor ? kid.span.endNs : cursor;
      if (ke <= ks) continue;
      if (ke < cursor) this.#own(node, tl, cat, ke, cursor);
      this.node(kid, ownCategory(kid.span, this.#agentService) ?? cat, ks, ke);
      cursor = ks;
    }
    if (cursor > lo) this.#own(node, tl, cat, lo, cursor);
  }

  // [a, b) of `node`'s own time; a CLIENT span's is split at its hop's instants
  #own(node: SpanNode, tl: HopTimeline | null, cat: TimeCategory, a: bigint, b: bigint): void {
    const sums = this.#sums;
    if (tl === null) {
      sums[CATEGORY_INDEX.get(cat)!]! += Number(b - a);
      return;
    }
    const collector = node === this.#root && node.span.service !== this.#agentService;
    const cuts = this.#cuts;
    cuts.length = 0;
    insertCut(cuts, tl.attemptNs, a, b);
    insertCut(cuts, tl.queuedEndNs, a, b);
    insertCut(cuts, tl.connectedNs, a, b);
    insertCut(cuts, tl.serverStartNs, a, b);
    insertCut(cuts, tl.serverEndNs, a, b);
    cuts.push(b);
    let from = a;
    for (const to of cuts) {
      if (to <= from) continue;
      const phase = phaseAt(tl, from);
      const len = Number(to - from);
      sums[CATEGORY_INDEX.get(hopCategory(phase, collector, cat))!]! += len;
      if (phase === 'network_before') sums[BEFORE]! += len;
      else if (phase === 'network_after') sums[AFTER]! += len;
      from = to;
    }
  }
}

// `t` into the sorted `cuts` when it falls strictly inside (a, b)
function insertCut(cuts: bigint[], t: bigint, a: bigint, b: bigint): void {
  if (t <= a || t >= b) return;
  let i = cuts.length;
  cuts.push(t);
  while (i > 0 && cuts[i - 1]! > t) {
    cuts[i] = cuts[i - 1]!;
    i--;
  }
  cuts[i] = t;
}

function byEndDesc(a: SpanNode, b: SpanNode): number {
  if (a.span.endNs !== b.span.endNs) return a.span.endNs > b.span.endNs ? -1 : 1;
  return a.span.startNs < b.span.startNs ? -1 : a.span.startNs > b.span.startNs ? 1 : 0;
}
