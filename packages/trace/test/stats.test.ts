import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { percentile, summarizeDurations } from '../src/analyze/percentiles.js';
import { computeStats, parseGrouping } from '../src/analyze/stats.js';
import { compareStats } from '../src/analyze/compare.js';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import { TraceUserError } from '../src/errors.js';
import { attributeRollout } from '../src/analyze/attribution.js';
import { bare, rolloutSpans, toRecords } from './support/fixtures.js';
import { phasedRolloutSpans } from './support/phased-rollouts.js';

// Brute force nearest rank: the smallest value v such that at least p% of the sample is <= v.
function bruteForce(values: number[], p: number): number {
  const candidates = [...new Set(values)].sort((a, b) => a - b);
  for (const v of candidates) if (values.filter((x) => x <= v).length >= (p / 100) * values.length) return v;
  return NaN;
}

// A small deterministic PRNG so failures reproduce.
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('percentiles', () => {
  it('matches a brute-force nearest-rank computation over random data', () => {
    const rand = lcg(42);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(rand() * 300);
      const values = Array.from({ length: n }, () => (rand() < 0.2 ? Math.floor(rand() * 5) : rand() * 1000));
      const s = summarizeDurations(values);
      for (const p of [50, 90, 95, 99] as const) assert.equal(s[`p${p}`], bruteForce(values, p), `n=${n} p=${p}`);
      assert.equal(s.max, Math.max(...values));
      assert.equal(percentile(Float64Array.from(values).sort(), 100), Math.max(...values));
    }
  });

  it('returns NaN for an empty sample and the value itself for one', () => {
    assert.ok(Number.isNaN(percentile([], 50)));
    assert.equal(summarizeDurations([7]).p99, 7);
  });
});

describe('computeStats', () => {
  it("counts a rollout's wall from the collector's call around it, as why does", () => {
    const spans = ['c0', 'c1'].flatMap((id, i) => phasedRolloutSpans({ rolloutId: id, atMs: i * 1000, collector: { serverMs: 0, queuedMs: 120, transitMs: 30, returnMs: 15 } }));
    const set = assembleTraces(toRecords(spans));
    const rollouts = findRollouts(set);
    assert.ok(rollouts.every((r) => r.envelope !== null));
    const whyWall = rollouts.reduce((n, r) => n + attributeRollout(r).wallMs, 0);
    const s = computeStats(set, rollouts);
    assert.ok(Math.abs(s.rolloutWallMs - whyWall) < 1e-6, `${s.rolloutWallMs} vs ${whyWall}`);
    assert.ok(s.rolloutWallMs > rollouts.reduce((n, r) => n + r.node.span.durationMs, 0) + 2 * 165 - 1e-6);
  });

  const spans = [...rolloutSpans({ rolloutId: 'a' }), ...rolloutSpans({ rolloutId: 'b', atMs: 5000 })];
  spans.push(bare('gym.verify', '00000000000000e1', null, 0, 9999, { attributes: { 'nemo.span.truncated': true } }));
  spans.push(bare('POST /get_weather', '00000000000000e2', null, 0, 10, { kind: 'SERVER', status: { code: 'ERROR', message: 'x' }, attributes: { 'http.route': '/get_weather' } }));
  const set = assembleTraces(toRecords(spans));
  const rollouts = findRollouts(set);

  it('groups by name with counts, errors, percentiles, totals and share of rollout wall time', () => {
    const s = computeStats(set, rollouts);
    assert.equal(s.truncatedExcluded, 1);
    assert.equal(s.rolloutWallMs, 1996);
    const model = s.groups.find((g) => g.key === 'gym.model.responses')!;
    assert.deepEqual([model.count, model.p50, model.p99, model.max, model.totalMs, model.totalSelfMs], [2, 586, 586, 586, 1172, 1172]);
    assert.equal(model.shareOfRolloutWall, 1172 / 1996);
    const verify = s.groups.find((g) => g.key === 'gym.verify')!;
    assert.equal(verify.count, 2);
    const tool = s.groups.find((g) => g.key === 'POST /get_weather')!;
    assert.deepEqual([tool.count, tool.errorCount, tool.errorRate, tool.p50, tool.max], [3, 1, 1 / 3, 85, 85]);
    assert.equal(s.groups[0]!.key, 'gym.model.responses'); // sorted by self time
  });

  it('groups by service and by attribute', () => {
    const bySvc = computeStats(set, rollouts, parseGrouping('service'));
    assert.deepEqual(bySvc.groups.map((g) => g.key).sort(), ['nemo-gym/policy_model', 'nemo-gym/simple_agent', 'nemo-gym/weather']);
    const byRoute = computeStats(set, rollouts, parseGrouping('attribute:http.route'));
    assert.deepEqual(byRoute.groups.map((g) => g.key).sort(), ['/get_weather', '/run', '/v1/responses', '/verify']);
    assert.ok(byRoute.ungrouped > 0);
    assert.throws(() => parseGrouping('colour'), TraceUserError);
  });

  it('compare flags groups whose p50 or p95 moved beyond the threshold', () => {
    const slower = rolloutSpans({ rolloutId: 'c' }).map((s) => (s.name === 'POST /get_weather' ? { ...s, endMs: s.startMs + 170 } : s));
    const b = assembleTraces(toRecords(slower));
    const a = assembleTraces(toRecords(rolloutSpans({ rolloutId: 'd' })));
    const c = compareStats(computeStats(a, findRollouts(a)), computeStats(b, findRollouts(b)), 10);
    const tool = c.rows.find((r) => r.key === 'POST /get_weather')!;
    assert.equal(tool.flagged, true);
    assert.equal(tool.change, 'slower');
    assert.equal(tool.p50DeltaPct, 100);
    assert.equal(c.rows[0]!.key, 'POST /get_weather');
    assert.equal(c.rows.find((r) => r.key === 'gym.verify')!.flagged, false);
    assert.equal(c.flaggedCount, 1);
  });
});
