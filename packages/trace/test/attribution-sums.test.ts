// `why --all` adds each rollout's split and causes straight into its sums: the same numbers, in the
// same order (causes first seen, hops tied on time outside their callee, the span named for a
// category), as building every rollout's attribution and adding that, on every shape of hop.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attributeInBigints, attributeRollout, attributeTime } from '../src/analyze/attribution.js';
import type { Attribution } from '../src/analyze/attribution.js';
import { AttributionSums } from '../src/analyze/attribution-sums.js';
import { AttributionTotals } from '../src/analyze/attribution-summary.js';
import { BottleneckAccumulator } from '../src/analyze/bottleneck.js';
import { walkTimeSplit } from '../src/analyze/time-split.js';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts, outermostOf } from '../src/assemble/rollouts.js';
import type { Rollout } from '../src/assemble/rollouts.js';
import type { SpanNode } from '../src/assemble/trace-model.js';
import { AGENT, bare, MODEL, RESOURCES, toRecords } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';
import { HOP_SHAPES } from './support/hop-shapes.js';
import { clientPhaseAttributes as phases, mixedRolloutSpans } from './support/phased-rollouts.js';

const rid = (id: string) => ({ 'nemo.gym.rollout.id': id });

function rolloutsOf(spans: FixtureSpan[]): Rollout[] {
  return findRollouts(assembleTraces(toRecords(spans)));
}

// The sums as `why --all` summed them before: an attribution per rollout, added.
function summedAttributions(items: readonly Attribution[]) {
  const totals = new AttributionTotals();
  const bottleneck = new BottleneckAccumulator();
  for (const a of items) {
    totals.add(a);
    bottleneck.add(a);
  }
  return { totals: totals.state(), bottleneck: bottleneck.state() };
}

// Exact, in order, key order included (the JSON output's): numbers as JSON writes them, bigints as text.
function text(state: unknown): string {
  return JSON.stringify(state, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

function assertSameSums(rollouts: readonly Rollout[], what: string): void {
  const sums = new AttributionSums();
  for (const r of rollouts) sums.addRollout(r);
  assert.equal(text(sums.state()), text(summedAttributions(rollouts.map(attributeRollout))), what);
  // and as the bigint path attributes them
  const inBigints = rollouts.map((r) => attributeInBigints(outermostOf(r), r.rolloutId, r.node.span.service));
  assert.equal(text(sums.state()), text(summedAttributions(inBigints)), `${what}, bigint path`);
}

describe("why --all's sums without an attribution per rollout", () => {
  for (const [name, spans] of Object.entries(HOP_SHAPES)) {
    it(`sum as the attributions do: ${name}`, () => {
      const rollouts = rolloutsOf(spans);
      assert.equal(rollouts.length, 1);
      assertSameSums(rollouts, name);
    });
  }

  it('sum as the attributions do over every shape together, phased rollouts with the collector hop, and a default-preset run', () => {
    const spans = [...Object.values(HOP_SHAPES).flatMap((shape, i) => shape.map((s) => ({ ...s, traceId: String(i + 1).padStart(32, '0') }))), ...mixedRolloutSpans()];
    const rollouts = rolloutsOf(spans);
    assert.equal(rollouts.length, Object.keys(HOP_SHAPES).length + 7);
    assertSameSums(rollouts, 'all');
    const sums = new AttributionSums();
    for (const r of rollouts) sums.addRollout(r);
    const causes = sums.bottleneck.state().causes;
    // the shapes reach every kind of hop cause, the collector's and a caller's queue over all its calls
    for (const kind of ['caller_queue', 'connect', 'transit', 'return', 'retries', 'network', 'unaccounted', 'model', 'tools', 'verify', 'agent'])
      assert.ok(
        causes.some((c) => c.kind === kind),
        kind,
      );
    assert.ok(causes.some((c) => c.collector));
    assert.ok(causes.some((c) => c.kind === 'caller_queue' && c.to === null));
  });

  it('list tied hops and tied spans in the order the attribution does', () => {
    // two calls with as much time outside their callee (10 ms each), and two model spans in two
    // services owning as much critical time: which is seen first decides the order of equal causes
    const spans = [
      bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('t') }),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 0, 40, { kind: 'CLIENT' }),
      bare('POST /v1/responses', '0000000000000003', '0000000000000002', 5, 35, { kind: 'SERVER', service: MODEL }),
      bare('HTTP POST', '0000000000000004', '0000000000000001', 50, 90, { kind: 'CLIENT' }),
      bare('POST /v1/responses', '0000000000000005', '0000000000000004', 55, 85, { kind: 'SERVER', service: 'nemo-gym/other_model' }),
      bare('HTTP POST', '0000000000000006', '0000000000000001', 90, 100, { kind: 'CLIENT', attributes: phases(2, 1, 4) }),
      bare('POST /search', '0000000000000007', '0000000000000006', 94, 96, { kind: 'SERVER', service: RESOURCES }),
    ];
    const rollouts = rolloutsOf(spans);
    assertSameSums(rollouts, 'ties');
    const causes = new BottleneckAccumulator();
    causes.add(attributeRollout(rollouts[0]!));
    const network = causes.state().causes.filter((c) => c.kind === 'network');
    // the attribution lists the later call first (its hops are taken from a stack): the order to keep
    assert.deepEqual(
      network.map((c) => [c.to, c.ms]),
      [
        ['nemo-gym/other_model', 10],
        [MODEL, 10],
      ],
    );
  });

  it('sum trace roots (no rollout spans) as the attributions of the roots do', () => {
    const set = assembleTraces(toRecords(Object.values(HOP_SHAPES).flatMap((shape, i) => shape.map((s) => ({ ...s, traceId: String(i + 1).padStart(32, '0'), attributes: {} })))));
    const roots: SpanNode[] = [...set.traces.values()].flatMap((t) => t.roots);
    assert.equal(roots.length, Object.keys(HOP_SHAPES).length);
    const sums = new AttributionSums();
    for (const root of roots) sums.add(root);
    assert.equal(text(sums.state()), text(summedAttributions(roots.map((root) => attributeTime(root)))));
  });

  it('fall back to the bigint attribution for a rollout longer than 2^53 ns (104 days), with the same answer', () => {
    const days = 120 * 24 * 3600 * 1000;
    const long = rolloutsOf([
      bare('gym.rollout', '0000000000000001', null, 0, days, { attributes: rid('long') }),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 1, days - 1, { kind: 'CLIENT', attributes: phases(0.5, 0, 1) }),
      bare('POST /v1/responses', '0000000000000003', '0000000000000002', 3, days - 3, { kind: 'SERVER', service: MODEL }),
    ]);
    assert.equal(walkTimeSplit(long[0]!.node, AGENT), null);
    // a long rollout between two ordinary ones: the reused state of the walk is not disturbed
    const [first, second] = rolloutsOf([...HOP_SHAPES['phases']!, ...HOP_SHAPES['retried']!.map((s) => ({ ...s, traceId: 'd'.repeat(32) }))]);
    assertSameSums([first!, long[0]!, second!], 'long');
  });
});
