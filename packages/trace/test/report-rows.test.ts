// The report's bounded keepers: TopK keeps the highest ranks; the report built batch by batch
// equals the report of the same run read whole, and above --max-rows lists only the failed, the
// slowest and a sample (the same sample whatever the batches), saying how many it left out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import { buildReportData, ReportBuilder } from '../src/report/report-data.js';
import type { ReportData } from '../src/report/report-data.js';
import { TopK } from '../src/report/top-k.js';
import { rolloutSpans, toRecords } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';

describe('TopK', () => {
  it('keeps the k highest ranks, highest first; a tie keeps the lower order', () => {
    const top = new TopK<string>(3);
    const offered = [
      [5, 'a'],
      [1, 'b'],
      [9, 'c'],
      [7, 'd'],
      [5, 'e'],
      [2, 'f'],
    ] as const;
    offered.forEach(([rank, item], order) => top.offer(rank, order, item));
    assert.deepEqual(top.sorted(), ['c', 'd', 'a']);
    assert.equal(top.accepts(5, 4), false);
    assert.equal(top.accepts(5, -1), true, 'an equal rank of a lower order wins');
    assert.equal(top.accepts(6, 99), true);
    assert.equal(new TopK<string>(0).offer(1, 0, 'x'), false);
  });

  it('keeps the same items in the same order whatever order they are offered in, ties included', () => {
    // ranks with many ties: only the order settles which are kept
    const items = Array.from({ length: 60 }, (_, order) => ({ rank: order % 4, order }));
    const keep = (offered: typeof items) => {
      const top = new TopK<number>(7);
      for (const { rank, order } of offered) top.offer(rank, order, order);
      return top.sorted();
    };
    const forward = keep(items);
    assert.deepEqual(forward, [3, 7, 11, 15, 19, 23, 27]);
    assert.deepEqual(keep([...items].reverse()), forward);
    // two keepers of two halves, the second's kept items offered to the first: one keeper's answer
    const [a, b] = [new TopK<number>(7), new TopK<number>(7)];
    for (const { rank, order } of items.slice(30)) b.offer(rank, order, order);
    for (const { rank, order } of items.slice(0, 30)) a.offer(rank, order, order);
    for (const { rank, order, item } of b.ranked()) a.offer(rank, order, item);
    assert.deepEqual(a.sorted(), forward);
  });
});

// 40 rollouts, each its own trace, durations spread; every 7th fails in the model.
const ROLLOUTS = 40;
function run(): FixtureSpan[][] {
  return Array.from({ length: ROLLOUTS }, (_, i) => {
    const extra = (i * 37) % 500;
    return rolloutSpans({ rolloutId: `${i}-0`, atMs: i * 100, reward: i % 2 }).map((s) => {
      if (s.name === 'POST /run' || s.name === 'gym.rollout') return { ...s, endMs: s.endMs + extra };
      if (s.name === 'gym.model.responses' && i % 7 === 3) return { ...s, status: { code: 'ERROR', message: 'overloaded' } };
      return s;
    });
  });
}

// made once: the fixture draws fresh ids on every call
const RUN = run();

function whole(options: { maxRollouts: number; maxRows: number }): ReportData {
  const set = assembleTraces(toRecords(RUN.flat()));
  return buildReportData(set, findRollouts(set), null, { ...options, generatedAt: new Date(0) });
}

function batched(options: { maxRollouts: number; maxRows: number }, size: number): ReportData {
  const builder = new ReportBuilder({ ...options, generatedAt: new Date(0) });
  const rollouts = RUN;
  // the batches in another order than the run's: nothing may depend on it but the row keys
  for (let b = Math.ceil(ROLLOUTS / size) - 1; b >= 0; b--) {
    const set = assembleTraces(toRecords(rollouts.slice(b * size, (b + 1) * size).flat()));
    builder.add(set, findRollouts(set), null);
  }
  return builder.finish(null);
}

// the row keys number rows in arrival order; compare rows by rollout id
function comparable(d: ReportData) {
  const byKey = new Map(d.rows.map((r) => [r.key, r.id]));
  return {
    ...d,
    rows: d.rows.map(({ key: _key, ...r }) => r).sort((a, b) => a.id.localeCompare(b.id)),
    details: Object.fromEntries(
      Object.entries(d.details)
        .map(([k, v]) => [byKey.get(k), v])
        .sort(),
    ),
  };
}

describe('the report built batch by batch', () => {
  it('lists every rollout while the run has at most --max-rows of them', () => {
    const d = whole({ maxRollouts: 8, maxRows: 100 });
    assert.equal(d.listing.capped, false);
    assert.equal(d.rows.length, ROLLOUTS);
    assert.equal(Object.keys(d.details).length, 8);
    assert.deepEqual(d.listing.picked, { failed: 2, slowest: 4, sample: 2 });
    assert.equal(d.summary.statusCounts.error, 6);
    assert.equal(d.summary.statusCounts.ok, ROLLOUTS - 6);
  });

  it('above --max-rows lists only the rows with a waterfall: the failed, the slowest, a sample', () => {
    const d = whole({ maxRollouts: 8, maxRows: 10 });
    assert.deepEqual(d.listing, { total: ROLLOUTS, listed: 8, capped: true, leftOut: ROLLOUTS - 8, maxRows: 10, picked: { failed: 2, slowest: 4, sample: 2 } });
    assert.equal(d.rows.length, 8);
    assert.ok(d.rows.every((r) => r.detail && d.details[r.key] !== undefined));
    const durations = d.rows.map((r) => r.durationMs);
    assert.deepEqual(
      [...durations].sort((a, b) => b - a),
      durations,
      'slowest first',
    );
    const failed = d.rows.filter((r) => r.picked === 'failed');
    assert.ok(failed.every((r) => r.status === 'error'));
    // the slowest failed are the ones listed as failed
    const slowestFailed = Array.from({ length: ROLLOUTS }, (_, i) => i)
      .filter((i) => i % 7 === 3)
      .sort((a, b) => ((b * 37) % 500) - ((a * 37) % 500))
      .slice(0, 2)
      .map((i) => `${i}-0`);
    assert.deepEqual(failed.map((r) => r.id).sort(), slowestFailed.sort());
    const slowest = d.rows.filter((r) => r.picked === 'slowest');
    const fastestSlowest = Math.min(...slowest.map((r) => r.durationMs));
    assert.equal(
      d.run.durations.counts.reduce((a, b) => a + b, 0),
      ROLLOUTS,
      'the histogram counts every rollout',
    );
    assert.equal(d.summary.rollouts, ROLLOUTS);
    // no unlisted non-failed rollout is slower than the slowest listed as slowest
    const all = whole({ maxRollouts: 0, maxRows: 100 }).rows;
    const listed = new Set(d.rows.map((r) => r.id));
    assert.ok(all.filter((r) => !listed.has(r.id) && r.status !== 'error').every((r) => r.durationMs <= fastestSlowest));
  });

  it('gives the same data in batches as read whole, the same sample included', () => {
    for (const options of [
      { maxRollouts: 8, maxRows: 10 },
      { maxRollouts: 8, maxRows: 100 },
    ]) {
      const a = comparable(whole(options));
      for (const size of [1, 7, 13]) assert.deepEqual(comparable(batched(options, size)), a, `batches of ${size}, ${JSON.stringify(options)}`);
    }
  });
});
