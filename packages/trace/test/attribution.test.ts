import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import { attributeTime } from '../src/analyze/attribution.js';
import { summarizeAttributions } from '../src/analyze/attribution-summary.js';
import { TIME_CATEGORIES } from '../src/analyze/categorize.js';
import { bare, MODEL, RESOURCES, rolloutSpans, toRecords } from './support/fixtures.js';

function rollouts(spans: ReturnType<typeof rolloutSpans>) {
  return findRollouts(assembleTraces(toRecords(spans)));
}

describe('attributeTime', () => {
  it('splits a realistic rollout into categories that sum to the wall time', () => {
    const [r] = rollouts(rolloutSpans({ rolloutId: '0-0' }));
    const a = attributeTime(r!.node, r!.rolloutId);
    assert.equal(a.wallMs, 998);
    assert.deepEqual(a.categories, {
      model: 590,
      tools: 85,
      verify: 255,
      judge: 0,
      seed: 0,
      agent: 28,
      caller_queue: 0,
      connect: 0,
      transit: 0,
      return: 0,
      retries: 0,
      network: 40,
      collector_send: 0,
      collector_return: 0,
      unaccounted: 0,
    });
    assert.deepEqual(a.network, { beforeMs: 20, afterMs: 20 });
    const sum = TIME_CATEGORIES.reduce((n, c) => n + a.categories[c], 0);
    assert.equal(sum, a.wallMs);
    assert.deepEqual(a.hops.map((h) => [h.name, h.beforeMs, h.afterMs]).sort(), [
      ['POST /get_weather', 5, 10],
      ['POST /v1/responses', 5, 5],
      ['POST /verify', 10, 5],
    ]);
    assert.equal(a.criticalSpans[0]!.name, 'gym.model.responses');
  });

  it('splits a CLIENT span into before and after its SERVER child with exact numbers', () => {
    const spans = [
      bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: { 'nemo.gym.rollout.id': 'x' } }),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 10, 90, { kind: 'CLIENT' }),
      bare('POST /seed_session', '0000000000000003', '0000000000000002', 25, 82, { kind: 'SERVER', service: RESOURCES }),
    ];
    const [r] = rollouts(spans);
    const a = attributeTime(r!.node, 'x');
    assert.deepEqual(a.network, { beforeMs: 15, afterMs: 8 });
    assert.equal(a.categories.network, 23);
    assert.equal(a.categories.seed, 57);
    assert.equal(a.categories.agent, 20);
    assert.equal(a.hops[0]!.beforeMs, 15);
    assert.equal(a.hops[0]!.afterMs, 8);
  });

  it('counts only the critical one of two parallel tool calls, and an uninstrumented call as unaccounted', () => {
    const spans = [
      bare('gym.rollout', '0000000000000001', null, 0, 100),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 0, 60, { kind: 'CLIENT' }),
      bare('POST /search', '0000000000000003', '0000000000000002', 0, 60, { kind: 'SERVER', service: RESOURCES }),
      bare('HTTP POST', '0000000000000004', '0000000000000001', 0, 30, { kind: 'CLIENT' }),
      bare('POST /lookup', '0000000000000005', '0000000000000004', 0, 30, { kind: 'SERVER', service: RESOURCES }),
      bare('HTTP GET', '0000000000000006', '0000000000000001', 60, 100, { kind: 'CLIENT' }),
    ];
    const [r] = rollouts(spans);
    const a = attributeTime(r!.node);
    assert.equal(a.categories.tools, 60);
    assert.equal(a.categories.unaccounted, 40);
    assert.equal(a.categories.agent, 0);
  });

  it('treats upstream CLIENT calls made by the model server as model time', () => {
    const spans = [
      bare('gym.rollout', '0000000000000001', null, 0, 100),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 0, 100, { kind: 'CLIENT' }),
      bare('POST /v1/responses', '0000000000000003', '0000000000000002', 0, 100, { kind: 'SERVER', service: MODEL }),
      bare('gym.model.responses', '0000000000000004', '0000000000000003', 0, 100, { service: MODEL }),
      bare('HTTP POST', '0000000000000005', '0000000000000004', 10, 90, { kind: 'CLIENT', service: MODEL }),
    ];
    const a = attributeTime(rollouts(spans)[0]!.node);
    assert.equal(a.categories.model, 100);
    assert.equal(a.categories.agent, 0);
    assert.equal(a.categories.unaccounted, 0);
  });
});

describe('summarizeAttributions', () => {
  it('sums categories over rollouts and averages shares', () => {
    const rs = rollouts([...rolloutSpans({ rolloutId: 'a' }), ...rolloutSpans({ rolloutId: 'b', atMs: 2000 })]);
    const s = summarizeAttributions(rs.map((r) => attributeTime(r.node, r.rolloutId)));
    assert.equal(s.rollouts, 2);
    assert.equal(s.totalWallMs, 1996);
    assert.equal(s.categories.model.totalMs, 1180);
    assert.ok(Math.abs(s.categories.model.meanShare - 590 / 998) < 1e-12);
    assert.deepEqual(s.network, { beforeMs: 40, afterMs: 40 });
  });
});
