// The phase split of one hop on hand-built trees with exact numbers: clamping when the callee's
// clock disagrees, retried requests, spans without phases, and the collector's hop.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attributeRollout, attributeTime } from '../src/analyze/attribution.js';
import { TIME_CATEGORIES } from '../src/analyze/categorize.js';
import { hopTimeline } from '../src/analyze/hop-timeline.js';
import { findMissingServerSpans } from '../src/analyze/missing-servers.js';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import { AGENT, bare, MODEL, toRecords } from './support/fixtures.js';
import { clientPhaseAttributes as phases, COLLECTOR, phasedRolloutSpans } from './support/phased-rollouts.js';

function rolloutOf(spans: ReturnType<typeof bare>[]) {
  const [r] = findRollouts(assembleTraces(toRecords(spans)));
  return r!;
}

const sum = (c: Record<string, number>) => TIME_CATEGORIES.reduce((n, k) => n + c[k as keyof typeof c]!, 0);

describe('client phases on the critical path', () => {
  it('splits a CLIENT span into caller queue, connect, transit and return', () => {
    const r = rolloutOf([
      bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: { 'nemo.gym.rollout.id': 'x' } }),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 10, 90, { kind: 'CLIENT', attributes: phases(12, 3, 16) }),
      bare('POST /v1/responses', '0000000000000003', '0000000000000002', 30, 80, { kind: 'SERVER', service: MODEL }),
    ]);
    const a = attributeRollout(r);
    assert.equal(a.categories.caller_queue, 12);
    assert.equal(a.categories.connect, 3);
    assert.equal(a.categories.transit, 5); // 10+15 → 30
    assert.equal(a.categories.return, 10);
    assert.equal(a.categories.model, 50);
    assert.equal(a.categories.network, 0);
    assert.equal(sum(a.categories), a.wallMs);
    assert.deepEqual([a.hops[0]!.reused, a.hops[0]!.connectMs, a.hops[0]!.clockSkewMs], [false, 3, 0]);
  });

  it('clamps a callee whose clock runs early, and says by how much', () => {
    const r = rolloutOf([
      bare('gym.rollout', '0000000000000001', null, 0, 100),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 10, 90, { kind: 'CLIENT', attributes: phases(20, 0, 21) }),
      // starts 8 ms before the request left the caller's pool (other host, other clock)
      bare('POST /v1/responses', '0000000000000003', '0000000000000002', 22, 95, { kind: 'SERVER', service: MODEL }),
    ]);
    const a = attributeRollout(r);
    assert.equal(a.categories.caller_queue, 12); // 10 → 22, the rest is hidden under the server span
    assert.equal(a.categories.transit, 0);
    assert.equal(a.categories.return, 0);
    assert.ok(a.categories.transit >= 0 && a.categories.return >= 0);
    assert.equal(sum(a.categories), a.wallMs);
    assert.equal(a.hops[0]!.clockSkewMs, 8); // 30 (connected) − 22, and 95 − 90 = 5 < 8
  });

  it('puts the time before the last attempt of a retried request into retries', () => {
    const r = rolloutOf([
      bare('gym.rollout', '0000000000000001', null, 0, 100),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 0, 100, { kind: 'CLIENT', attributes: phases(2, 1, 63, { 'http.request.resend_count': 1 }) }),
      bare('POST /verify', '0000000000000003', '0000000000000002', 5, 30, { kind: 'SERVER', service: 'nemo-gym/weather', status: { code: 'ERROR', message: 'HTTP 503' } }),
      bare('POST /verify', '0000000000000004', '0000000000000002', 64, 98, { kind: 'SERVER', service: 'nemo-gym/weather' }),
    ]);
    const a = attributeRollout(r);
    // last attempt began at 63 − 3 = 60: 0–5 and 30–60 are retries; 60–62 queue, 62–63 connect
    assert.equal(a.categories.retries, 35);
    assert.equal(a.categories.caller_queue, 2);
    assert.equal(a.categories.connect, 1);
    assert.equal(a.categories.transit, 1);
    assert.equal(a.categories.return, 2);
    assert.equal(a.categories.verify, 59);
    assert.equal(sum(a.categories), a.wallMs);
    assert.equal(hopTimeline(r.node.children[0]!).server!.span.spanId, '0000000000000004');
  });

  it('counts a call that failed without an answer and left no SERVER span (refused, reset) as retries, not as a missing log', () => {
    const set = assembleTraces(
      toRecords([
        bare('gym.rollout', '0000000000000001', null, 0, 400),
        bare('HTTP POST', '0000000000000002', '0000000000000001', 10, 40, { kind: 'CLIENT', attributes: phases(1, 0, 2, { 'http.response.status_code': 200 }) }),
        bare('POST /seed_session', '0000000000000003', '0000000000000002', 15, 35, { kind: 'SERVER', service: 'nemo-gym/weather' }),
        // the server is gone: five refused attempts and their back-off, no phases (nothing was sent)
        bare('HTTP POST', '0000000000000004', '0000000000000001', 50, 350, {
          kind: 'CLIENT',
          status: { code: 'ERROR', message: 'connect ECONNREFUSED 127.0.0.1:9' },
          attributes: { 'url.full': 'http://127.0.0.1:9/verify', 'error.type': 'ECONNREFUSED', 'http.request.resend_count': 4 },
        }),
        // sent once (2 ms queued, then written), reset as the server died, then refused: after the send it is failed attempts
        bare('HTTP POST', '0000000000000005', '0000000000000001', 355, 397, {
          kind: 'CLIENT',
          status: { code: 'ERROR', message: 'other side closed' },
          attributes: { ...phases(2, 0, 2), 'url.full': 'http://127.0.0.1:9/verify', 'error.type': 'UND_ERR_SOCKET', 'http.request.resend_count': 2 },
        }),
      ]),
    );
    const r = findRollouts(set)[0]!;
    const a = attributeRollout(r);
    assert.equal(a.categories.retries, 300 + 40);
    assert.equal(a.categories.unaccounted, 0);
    assert.equal(a.categories.caller_queue, 1 + 2);
    assert.equal(sum(a.categories), a.wallMs);
    assert.equal(hopTimeline(r.node.children[1]!).unanswered, true);
    assert.equal(hopTimeline(r.node.children[2]!).unanswered, true);
    assert.equal(hopTimeline(r.node.children[0]!).unanswered, false);
    // and no SERVER span is reported missing for it
    assert.deepEqual(findMissingServerSpans(set), []);
  });

  it('keeps the before/after split, as network, when no phases were recorded', () => {
    const r = rolloutOf([
      bare('gym.rollout', '0000000000000001', null, 0, 100),
      bare('HTTP POST', '0000000000000002', '0000000000000001', 10, 90, { kind: 'CLIENT' }),
      bare('POST /seed_session', '0000000000000003', '0000000000000002', 25, 82, { kind: 'SERVER', service: 'nemo-gym/weather' }),
    ]);
    const a = attributeTime(r.node);
    assert.deepEqual([a.categories.network, a.network.beforeMs, a.network.afterMs], [23, 15, 8]);
    assert.equal(a.hops[0]!.phasesRecorded, false);
  });

  it('accounts for the collector around the rollout as its own categories', () => {
    const spans = phasedRolloutSpans({ rolloutId: 'c', atMs: 0, collector: { serverMs: 0, queuedMs: 120, transitMs: 30, returnMs: 15 } });
    const [r] = findRollouts(assembleTraces(toRecords(spans)));
    assert.equal(r!.envelope?.span.service, COLLECTOR);
    const a = attributeRollout(r!);
    assert.equal(a.rootName, 'HTTP POST');
    assert.equal(a.agentService, AGENT);
    assert.ok(Math.abs(a.categories.collector_send - (120 + 0.03 + 30)) < 1e-6, String(a.categories.collector_send));
    assert.ok(Math.abs(a.categories.collector_return - 15) < 1e-6);
    assert.ok(Math.abs(sum(a.categories) - a.wallMs) < 1e-9);
    assert.ok(a.wallMs > r!.node.span.durationMs + 165);
    const hop = a.hops.find((h) => h.collector)!;
    assert.deepEqual([hop.fromService, hop.toService, hop.name], [COLLECTOR, AGENT, 'POST /run']);
    assert.ok(Math.abs(hop.critical.caller_queue! - 120) < 1e-6);
  });
});
