// The route of a SERVER span, with the rollout prefix the runtime adds stripped; a judge's model
// call under verification is its own category.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import { attributeTime } from '../src/analyze/attribution.js';
import { findBottleneck } from '../src/analyze/bottleneck.js';
import { categorizeSubtree, routeOf } from '../src/analyze/categorize.js';
import { diagnosisSentence } from '../src/render/diagnosis.js';
import { bare, MODEL, RESOURCES, toRecords } from './support/fixtures.js';

const server = (name: string, attributes: Record<string, unknown> = {}) => toRecords([bare(name, '0000000000000001', null, 0, 1, { kind: 'SERVER', attributes })])[0]!;

describe('routeOf', () => {
  it('reads http.route, else the path of the span name, and strips /ng-rollout/<id>', () => {
    assert.equal(routeOf(server('POST /run', { 'http.route': '/run' })), '/run');
    assert.equal(routeOf(server('POST /v1/responses')), '/v1/responses');
    assert.equal(routeOf(server('POST', { 'http.route': '/ng-rollout/7-0/v1/responses' })), '/v1/responses');
    assert.equal(routeOf(server('POST /ng-rollout/7-0/training-token-capture/v1/chat/completions')), '/v1/chat/completions');
    assert.equal(routeOf(server('POST', { 'http.route': '/ng-rollout/' })), '/ng-rollout/');
    assert.equal(routeOf(server('gym.verify')), null);
  });
});

describe('the judge category', () => {
  // a rollout whose verify calls a judge model: policy call 0-30 ms, verify 40-100 ms with a judge call 50-90 ms
  const spans = [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: { 'nemo.gym.rollout.id': 'j' } }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 0, 30, { kind: 'CLIENT' }),
    bare('POST /v1/responses', '0000000000000003', '0000000000000002', 0, 30, { kind: 'SERVER', service: MODEL }),
    bare('gym.model.responses', '0000000000000004', '0000000000000003', 0, 30, { service: MODEL }),
    bare('HTTP POST', '0000000000000005', '0000000000000001', 40, 100, { kind: 'CLIENT' }),
    bare('POST /verify', '0000000000000006', '0000000000000005', 40, 100, { kind: 'SERVER', service: RESOURCES }),
    bare('gym.verify', '0000000000000007', '0000000000000006', 40, 100, { service: RESOURCES }),
    bare('HTTP POST', '0000000000000008', '0000000000000007', 50, 90, { kind: 'CLIENT', service: RESOURCES }),
    bare('POST /v1/responses', '0000000000000009', '0000000000000008', 50, 90, { kind: 'SERVER', service: MODEL }),
    bare('gym.model.responses', '000000000000000a', '0000000000000009', 50, 90, { service: MODEL }),
  ];

  it("counts a model call made while verifying as judge time, and the policy's as model time", () => {
    const [r] = findRollouts(assembleTraces(toRecords(spans)));
    const cats = categorizeSubtree(r!.node);
    const byId = new Map([...cats].map(([node, cat]) => [node.span.spanId, cat]));
    assert.equal(byId.get('0000000000000004'), 'model');
    assert.equal(byId.get('0000000000000009'), 'judge');
    assert.equal(byId.get('000000000000000a'), 'judge');
    const a = attributeTime(r!.node, 'j');
    assert.equal(a.categories.judge, 40);
    assert.equal(a.categories.model, 30);
    assert.equal(a.categories.verify, 20);
  });

  it('names the judge as the bottleneck when its calls hold the most time', () => {
    // the policy's call shortened to 10 ms: the judge's 40 ms are the largest cause
    const shorter = spans.map((s) => (s.spanId <= '0000000000000004' && s.spanId >= '0000000000000002' ? { ...s, endMs: 10 } : s));
    const [r] = findRollouts(assembleTraces(toRecords(shorter)));
    const b = findBottleneck([attributeTime(r!.node, 'j')], { processes: [], memory: [], hostMemory: [], recorded: false });
    assert.equal(b.cause?.kind, 'judge');
    assert.match(diagnosisSentence(b), /waiting for the judge model .* while verifying: the judge is the bottleneck/);
  });
});
