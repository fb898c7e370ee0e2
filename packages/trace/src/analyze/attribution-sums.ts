/**
 * `why --all`'s sums: each rollout's time split and causes added straight into
 * {@link AttributionTotals} and {@link BottleneckAccumulator} from one critical-path walk, without
 * the {@link Attribution} that `why <rollout>` prints (its hops, critical-span list and per-span
 * shares are garbage as soon as they are summed). The numbers are those of `attributeTime` then
 * `add`, added in the same order: the largest span of each category, and the hops in the order
 * `attributeTime` lists them (time outside the callee, largest first; ties in tree order).
 * @module
 */
import type { Attribution } from './attribution.js';
import { attributeTime } from './attribution.js';
import { AttributionTotals } from './attribution-summary.js';
import type { AttributionTotalsState } from './attribution-summary.js';
import { BottleneckAccumulator, CATEGORY_CAUSES } from './bottleneck.js';
import type { BottleneckState } from './bottleneck.js';
import { calleeOf } from './callee.js';
import type { TimeCategory } from './categorize.js';
import { CriticalDetail, SPLIT_WALL, splitSlotOf, walkTimeSplit } from './time-split.js';
import { outermostOf } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { SpanNode } from '../assemble/trace-model.js';
import { nsToMs } from '../span-record.js';

/** What an {@link AttributionSums} holds. */
export interface AttributionSumsState {
  totals: AttributionTotalsState;
  bottleneck: BottleneckState;
}

const CATEGORY_SLOTS = CATEGORY_CAUSES.map(splitSlotOf);

/** The time split and bottleneck causes of many rollouts (or trace roots), one at a time. */
export class AttributionSums {
  readonly totals = new AttributionTotals();
  readonly bottleneck = new BottleneckAccumulator();
  // reused from one rollout to the next: the walk's detail, and per span owning critical time its
  // total and the category it is listed under
  readonly #detail = new CriticalDetail();
  readonly #spanMs: number[] = [];
  readonly #spanCategory: TimeCategory[] = [];
  // the hops that count (indexes into the detail's clients), in the order `attributeTime` lists them
  readonly #hops: number[] = [];
  readonly #outside: number[] = [];
  #hopCount = 0;
  readonly #stack: SpanNode[] = [];

  /** Adds a rollout, from its outermost span (the collector's CLIENT span when present), as `attributeRollout` attributes it. */
  addRollout(r: Rollout): void {
    this.add(outermostOf(r), r.node.span.service);
  }

  /** Adds the subtree under `root`, whose agent runs in `agentService`, as `attributeTime` attributes it. */
  add(root: SpanNode, agentService: string = root.span.service): void {
    const detail = this.#detail;
    detail.reset();
    const sums = walkTimeSplit(root, agentService, detail);
    // a root longer than 2^53 ns is summed in bigints, by the attribution's own path
    if (sums === null) return this.#addAttribution(attributeTime(root, null, { agentService }));
    try {
      this.totals.addSums(sums);
      this.bottleneck.addRoot(sums[SPLIT_WALL]! / 1e6, root.span.startNs, root.span.endNs);
      this.#listSpans();
      for (let c = 0; c < CATEGORY_CAUSES.length; c++) {
        const ms = sums[CATEGORY_SLOTS[c]!]! / 1e6;
        if (ms <= 0) continue; // what the accumulator would drop: no search for its span
        const category = CATEGORY_CAUSES[c]!;
        const top = this.#largestOf(category);
        this.bottleneck.addCategory(category, ms, top < 0 ? undefined : detail.spans[top]!.span, agentService);
      }
      this.#listHops(root);
      for (let h = 0; h < this.#hopCount; h++) this.#addHop(this.#hops[h]!, root, agentService);
    } finally {
      detail.reset();
      // empty unless something threw (emptied each time, it would give its room back)
      if (this.#stack.length > 0) this.#stack.length = 0;
    }
  }

  /** The sums so far, as plain data (for {@link merge} in another thread). */
  state(): AttributionSumsState {
    return { totals: this.totals.state(), bottleneck: this.bottleneck.state() };
  }

  /** Adds another instance's sums, as if its rollouts had been added here after these. */
  merge(s: AttributionSumsState): void {
    this.totals.merge(s.totals);
    this.bottleneck.merge(s.bottleneck);
  }

  #addAttribution(a: Attribution): void {
    this.totals.add(a);
    this.bottleneck.add(a);
  }

  // Per span owning critical time: its total (ms) and its category, the one it owns most time in
  // (the first of equals), as the attribution's critical-span list has them.
  #listSpans(): void {
    const detail = this.#detail;
    for (let i = 0; i < detail.spanCount; i++) {
      const byCat = detail.shares[i]!;
      this.#spanMs[i] = byCat.total() / 1e6;
      this.#spanCategory[i] = byCat.largestKey('unaccounted');
    }
  }

  // The span listed first under `category` in the list sorted by ms (largest first, a stable sort):
  // the largest, the first of equals; -1 when none.
  #largestOf(category: TimeCategory): number {
    let best = -1;
    for (let i = 0; i < this.#detail.spanCount; i++) if (this.#spanCategory[i] === category && (best < 0 || this.#spanMs[i]! > this.#spanMs[best]!)) best = i;
    return best;
  }

  // The CLIENT spans that owned critical time and are hops (a call out of a model or tool to a
  // callee that left no span is not), in the order `attributeTime` lists its hops: tree order as
  // its stack visits them, then stably sorted by time outside the callee, largest first.
  #listHops(root: SpanNode): void {
    const detail = this.#detail;
    this.#hopCount = 0;
    if (detail.clientCount === 0) return;
    if (detail.clientCount === 1) return this.#listHop(0);
    const stack = this.#stack;
    stack.push(root);
    while (stack.length > 0) {
      const n = stack.pop()!;
      for (const c of n.children) stack.push(c);
      if (n.span.kind !== 'CLIENT') continue;
      const i = detail.clientIndexOf(n);
      if (i >= 0) this.#listHop(i);
    }
  }

  #listHop(i: number): void {
    const detail = this.#detail;
    const tl = detail.timelineAt(i);
    if (tl.server === null && detail.inheritedAt(i) !== 'agent') return;
    const outside = tl.client.span.durationMs - (tl.server === null ? 0 : nsToMs(tl.serverEndNs - tl.serverStartNs));
    // insertion, after every hop with as much time outside (a stable sort, largest first)
    let at = this.#hopCount++;
    while (at > 0 && this.#outside[at - 1]! < outside) {
      this.#hops[at] = this.#hops[at - 1]!;
      this.#outside[at] = this.#outside[at - 1]!;
      at--;
    }
    this.#hops[at] = i;
    this.#outside[at] = outside;
  }

  #addHop(i: number, root: SpanNode, agentService: string): void {
    const detail = this.#detail;
    const tl = detail.timelineAt(i);
    const c = tl.client.span;
    const s = tl.server?.span ?? null;
    const critical = detail.criticalAt(i);
    const collector = tl.client === root && c.service !== agentService;
    const to = s?.service ?? calleeOf(c);
    const name = s?.name ?? c.name;
    for (let k = 0; k < critical.count; k++) this.bottleneck.addHopPhase(critical.keys[k]!, critical.values[k]! / 1e6, c.service, to, name, collector);
  }
}
