// The time split `stats` sums for every rollout (summed in numbers as the critical path is walked)
// gives exactly what `why`'s attribution gives for the same rollout, on every shape of hop.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attributeInBigints, attributeRollout, splitRolloutTime } from '../src/analyze/attribution.js';
import { AttributionTotals } from '../src/analyze/attribution-summary.js';
import { outermostOf } from '../src/assemble/rollouts.js';
import { emptyClientPhases } from '../src/analyze/client-phases.js';
import { emptyHopTimeline, fillHopTimeline, hopPhaseDurations, hopTimeline, splitByPhase } from '../src/analyze/hop-timeline.js';
import type { HopPhase, HopTimeline } from '../src/analyze/hop-timeline.js';
import { sumTimeSplit } from '../src/analyze/time-split.js';
import { nsToMs } from '../src/span-record.js';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import type { Rollout } from '../src/assemble/rollouts.js';
import { AGENT, bare, defaultPresetSpans, MODEL, toRecords } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';
import { HOP_SHAPES as shapes } from './support/hop-shapes.js';
import { clientPhaseAttributes as phases, mixedRolloutSpans, phasedRolloutSpans } from './support/phased-rollouts.js';

const rid = (id: string) => ({ 'nemo.gym.rollout.id': id });

function rolloutsOf(spans: FixtureSpan[]): Rollout[] {
  return findRollouts(assembleTraces(toRecords(spans)));
}

const split = (r: Rollout) => {
  const a = attributeRollout(r);
  return { wallMs: a.wallMs, categories: a.categories, network: a.network };
};

describe("the time split stats sums, and why's attribution, in numbers", () => {
  for (const [name, spans] of Object.entries(shapes)) {
    it(`equals why's attribution: ${name}`, () => {
      const [r] = rolloutsOf(spans);
      assert.ok(sumTimeSplit(r!.node, r!.node.span.service) !== null, 'summed in numbers');
      assert.deepEqual(splitRolloutTime(r!), split(r!));
    });

    it(`gives why's whole attribution (hops, critical spans) as the bigint path does: ${name}`, () => {
      const [r] = rolloutsOf(spans);
      assert.deepEqual(attributeRollout(r!), attributeInBigints(outermostOf(r!), r!.rolloutId, r!.node.span.service));
    });
  }

  it('splits each whole hop into the phases splitByPhase gives, merged and summed as before', () => {
    // the whole hop from its pieces, as `why` summed them before the sums were taken in numbers
    const reference = (tl: HopTimeline) => {
      const phases: Partial<Record<HopPhase, number>> = {};
      const add = (a: bigint, b: bigint) => {
        for (const [p, ns] of splitByPhase(tl, a, b)) phases[p] = (phases[p] ?? 0) + nsToMs(ns);
      };
      if (tl.server === null) add(tl.client.span.startNs, tl.client.span.endNs);
      else {
        add(tl.client.span.startNs, tl.serverStartNs);
        add(tl.serverEndNs, tl.client.span.endNs);
      }
      return phases;
    };
    let hops = 0;
    const runs = [...Object.values(shapes), phasedRolloutSpans({ rolloutId: 'q', atMs: 0, model: { serverMs: 40, queuedMs: 7.3, connectMs: 2.1, transitMs: 3.7, returnMs: 1.9 } })];
    for (const run of runs)
      for (const node of assembleTraces(toRecords(run)).traces.values().next().value!.nodes.values())
        if (node.span.kind === 'CLIENT') {
          const tl = hopTimeline(node);
          assert.deepEqual(hopPhaseDurations(tl).phases, reference(tl), node.span.spanId);
          hops++;
        }
    assert.ok(hops >= 10, String(hops));
  });

  it('fills a reused timeline (and its phases) as hopTimeline builds a new one, hop after hop', () => {
    const tl = emptyHopTimeline();
    const into = emptyClientPhases();
    const runs = [
      ...Object.values(shapes),
      phasedRolloutSpans({ rolloutId: 'q', atMs: 0, model: { serverMs: 40, queuedMs: 7.3, connectMs: 2.1, transitMs: 3.7, returnMs: 1.9 } }),
      phasedRolloutSpans({ rolloutId: 'q2', atMs: 0, model: { serverMs: 4, queuedMs: 0, connectMs: 0, transitMs: 0.5, returnMs: 0 } }),
    ];
    let hops = 0;
    for (const run of runs)
      for (const node of assembleTraces(toRecords(run)).traces.values().next().value!.nodes.values())
        if (node.span.kind === 'CLIENT') {
          assert.deepEqual(fillHopTimeline(tl, node, into), hopTimeline(node), node.span.spanId);
          hops++;
        }
    assert.ok(hops >= 12, String(hops));
  });

  it("equals why's attribution on phased rollouts with the collector's hop, and on a default-preset run", () => {
    const rollouts = rolloutsOf(mixedRolloutSpans());
    assert.equal(rollouts.length, 7);
    for (const r of rollouts) {
      assert.deepEqual(splitRolloutTime(r), split(r), r.rolloutId);
      assert.deepEqual(attributeRollout(r), attributeInBigints(outermostOf(r), r.rolloutId, r.node.span.service), r.rolloutId);
    }
    assert.ok(rollouts.some((r) => r.envelope !== null && splitRolloutTime(r).categories.collector_send > 0));
  });

  it("adds into stats' totals from the walk's slots what adding each rollout's split adds, the long rollout's included", () => {
    const days = 120 * 24 * 3600 * 1000;
    const spans = [
      ...Object.values(shapes).flatMap((shape, i) => shape.map((s) => ({ ...s, traceId: String(i + 1).padStart(32, '0') }))),
      ...phasedRolloutSpans({ rolloutId: 'p1', atMs: 10, collector: { serverMs: 0, queuedMs: 120, transitMs: 30, returnMs: 15 } }),
      ...defaultPresetSpans(['d0', 'd1']),
      bare('gym.rollout', '0000000000000001', null, 0, days, { traceId: 'e'.repeat(32), attributes: rid('long') }),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 1, days - 1, { traceId: 'e'.repeat(32), kind: 'CLIENT', attributes: phases(0.5, 0, 1) }),
    ];
    const rollouts = rolloutsOf(spans);
    assert.equal(rollouts.length, Object.keys(shapes).length + 4);
    const bySlots = new AttributionTotals();
    const bySplits = new AttributionTotals();
    for (const r of rollouts) {
      bySlots.addRollout(r);
      bySplits.add(splitRolloutTime(r));
    }
    assert.equal(JSON.stringify(bySlots.state()), JSON.stringify(bySplits.state()));
    assert.ok(bySlots.finish().categories.collector_send.totalMs > 0);
  });

  it('walks children ending together, starting together or nested in the order the critical path takes them, few or many', () => {
    // siblings with equal intervals: the one the path walks into owns the time, the other none
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (const children of [2, 3, 5, 16, 17, 40]) {
      const spans: FixtureSpan[] = [bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid(`k${children}`) })];
      for (let i = 0; i < children; i++) {
        const start = next(4) * 10;
        const end = 100 - next(4) * 10;
        const id = (i + 2).toString(16).padStart(16, '0');
        spans.push(bare(`step ${i}`, id, '0000000000000001', start, end, { service: i % 2 === 0 ? AGENT : MODEL }));
        if (i % 3 === 0) spans.push(bare(`inner ${i}`, (i + 200).toString(16).padStart(16, '0'), id, start + 1, end - 1, { service: MODEL }));
      }
      const [r] = rolloutsOf(spans);
      const a = attributeRollout(r!);
      assert.deepEqual(a, attributeInBigints(outermostOf(r!), r!.rolloutId, r!.node.span.service), String(children));
      assert.ok(a.criticalSpans.length >= 2, String(children));
    }
  });

  it('falls back to bigints for a rollout longer than 2^53 ns (104 days), with the same answer', () => {
    const days = 120 * 24 * 3600 * 1000;
    const [r] = rolloutsOf([
      bare('gym.rollout', '0000000000000001', null, 0, days, { attributes: rid('long') }),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 1, days - 1, { kind: 'CLIENT', attributes: phases(0.5, 0, 1) }),
      bare('POST /v1/responses', '0000000000000003', '0000000000000002', 3, days - 3, { kind: 'SERVER', service: MODEL }),
    ]);
    assert.equal(sumTimeSplit(r!.node, AGENT), null);
    assert.deepEqual(splitRolloutTime(r!), split(r!));
  });
});
