// The time split `stats` sums for every rollout (summed in numbers as the critical path is walked)
// gives exactly what `why`'s attribution gives for the same rollout, on every shape of hop.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attributeInBigints, attributeRollout, splitRolloutTime } from '../src/analyze/attribution.js';
import { outermostOf } from '../src/assemble/rollouts.js';
import { hopPhaseDurations, hopTimeline, splitByPhase } from '../src/analyze/hop-timeline.js';
import type { HopPhase, HopTimeline } from '../src/analyze/hop-timeline.js';
import { sumTimeSplit } from '../src/analyze/time-split.js';
import { nsToMs } from '../src/span-record.js';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import type { Rollout } from '../src/assemble/rollouts.js';
import { AGENT, bare, defaultPresetSpans, MODEL, RESOURCES, rolloutSpans, toRecords } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';
import { clientPhaseAttributes as phases, phasedRolloutSpans } from './support/phased-rollouts.js';

const rid = (id: string) => ({ 'nemo.gym.rollout.id': id });

function rolloutsOf(spans: FixtureSpan[]): Rollout[] {
  return findRollouts(assembleTraces(toRecords(spans)));
}

// Hand-built rollouts: phases with a callee whose clock runs early or late, a retried request, no
// phases, no SERVER span, parallel calls, CLIENT calls out of the model server, a zero-length one.
const shapes: Record<string, FixtureSpan[]> = {
  phases: [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('a') }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 10, 90, { kind: 'CLIENT', attributes: phases(12, 3, 16) }),
    bare('POST /v1/responses', '0000000000000003', '0000000000000002', 30, 80, { kind: 'SERVER', service: MODEL }),
  ],
  'callee clock early and late': [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('b') }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 10, 90, { kind: 'CLIENT', attributes: phases(20, 0, 21) }),
    bare('POST /v1/responses', '0000000000000003', '0000000000000002', 22, 95, { kind: 'SERVER', service: MODEL }),
    bare('HTTP POST', '0000000000000004', '0000000000000001', 91, 99, { kind: 'CLIENT', attributes: phases(1, 0, 1.5) }),
    bare('POST /verify', '0000000000000005', '0000000000000004', 90, 99.5, { kind: 'SERVER', service: RESOURCES }),
  ],
  retried: [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('c') }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 0, 100, { kind: 'CLIENT', attributes: phases(2, 1, 63, { 'http.request.resend_count': 1 }) }),
    bare('POST /verify', '0000000000000003', '0000000000000002', 5, 30, { kind: 'SERVER', service: RESOURCES, status: { code: 'ERROR', message: 'HTTP 503' } }),
    bare('POST /verify', '0000000000000004', '0000000000000002', 64, 98, { kind: 'SERVER', service: RESOURCES }),
  ],
  'no phases, no server, parallel calls': [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('d') }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 0, 60, { kind: 'CLIENT' }),
    bare('POST /search', '0000000000000003', '0000000000000002', 7, 52, { kind: 'SERVER', service: RESOURCES }),
    bare('HTTP POST', '0000000000000004', '0000000000000001', 0, 30, { kind: 'CLIENT' }),
    bare('POST /lookup', '0000000000000005', '0000000000000004', 0, 30, { kind: 'SERVER', service: RESOURCES }),
    bare('HTTP GET', '0000000000000006', '0000000000000001', 60, 100, { kind: 'CLIENT', attributes: phases(3, 2, 6) }),
  ],
  'calls out of the model server': [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('e') }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 5, 95, { kind: 'CLIENT' }),
    bare('POST /v1/responses', '0000000000000003', '0000000000000002', 6, 94, { kind: 'SERVER', service: MODEL }),
    bare('HTTP POST', '0000000000000004', '0000000000000003', 10, 80, { kind: 'CLIENT', service: MODEL }),
    bare('HTTP POST', '0000000000000005', '0000000000000003', 81, 90, { kind: 'CLIENT', service: MODEL, attributes: phases(1, 1, 2.5) }),
  ],
  'zero length': [bare('gym.rollout', '0000000000000001', null, 50, 50, { attributes: rid('f') })],
};

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

  it("equals why's attribution on phased rollouts with the collector's hop, and on a default-preset run", () => {
    const spans = [
      ...phasedRolloutSpans({ rolloutId: 'p0', atMs: 0 }),
      ...phasedRolloutSpans({
        rolloutId: 'p1',
        atMs: 10,
        model: { serverMs: 40, queuedMs: 7, connectMs: 2, transitMs: 3, returnMs: 1 },
        collector: { serverMs: 0, queuedMs: 120, transitMs: 30, returnMs: 15 },
      }),
      ...phasedRolloutSpans({ rolloutId: 'p2', atMs: 20, tool: { serverMs: 5, transitMs: 9 }, verify: { serverMs: 1, connectMs: 4 } }),
      ...defaultPresetSpans(['d0', 'd1', 'd2']),
      ...rolloutSpans({ rolloutId: 'r0' }),
    ];
    const rollouts = rolloutsOf(spans);
    assert.equal(rollouts.length, 7);
    for (const r of rollouts) {
      assert.deepEqual(splitRolloutTime(r), split(r), r.rolloutId);
      assert.deepEqual(attributeRollout(r), attributeInBigints(outermostOf(r), r.rolloutId, r.node.span.service), r.rolloutId);
    }
    assert.ok(rollouts.some((r) => r.envelope !== null && splitRolloutTime(r).categories.collector_send > 0));
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
