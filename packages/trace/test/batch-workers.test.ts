// A large run's batches are read by worker threads (`GYM_TRACE_WORKERS`), each on a share of the
// batches; their sums are merged in batch order. The answers must not depend on how many threads
// read: `GYM_TRACE_BATCH_MIB` set tiny makes a small run take the batched path in many batches.
import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AnomalyAccumulator } from '../src/analyze/anomalies.js';
import { StatsAccumulator } from '../src/analyze/stats.js';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import { anomalies } from '../src/commands/anomalies.js';
import { StatsTask } from '../src/commands/batch-tasks.js';
import { failWorkersForTests, sharePartitions, WORKERS_ENV } from '../src/commands/batch-workers.js';
import { BATCH_ENV, readInBatches } from '../src/commands/load-batches.js';
import { stats } from '../src/commands/stats.js';
import { why } from '../src/commands/why.js';
import { capture } from './support/capture.js';
import { bare, defaultPresetSpans, MODEL, rolloutSpans, toRecords, writeRunLogs } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
afterEach(() => {
  delete process.env[BATCH_ENV];
  delete process.env[WORKERS_ENV];
});

const TINY_BATCH_MIB = '0.004';

// A default-preset run of 30 rollouts (one gym.job trace, split under its root), per-rollout
// traces with errors and without verification, and a trace whose root is missing.
function run(): FixtureSpan[] {
  const ids = Array.from({ length: 30 }, (_, i) => `${i}-0`);
  const lost = 'd'.repeat(32);
  return [
    ...defaultPresetSpans(ids),
    ...[0, 1, 2, 3].flatMap((i) =>
      rolloutSpans({ rolloutId: `solo-${i}`, atMs: 300 * i, noVerify: i % 2 === 0 }).map((s) =>
        s.name === 'gym.model.responses' ? { ...s, status: { code: 'ERROR', message: `overloaded ${i}` } } : s,
      ),
    ),
    bare('lost child', 'aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 10, 20, { service: MODEL, traceId: lost }),
    bare('lost sibling', 'aaaaaaaaaaaaaaab', 'bbbbbbbbbbbbbbbb', 12, 25, { service: MODEL, traceId: lost }),
  ];
}

async function answer(cmd: (c: ReturnType<typeof capture>) => Promise<number>, workers: number): Promise<string> {
  process.env[BATCH_ENV] = TINY_BATCH_MIB;
  process.env[WORKERS_ENV] = String(workers);
  const c = capture();
  assert.equal(await cmd(c), 0, c.err);
  return c.out;
}

// Sums of floating-point times may differ in the last bits with the order they are added in.
function rounded(json: string): unknown {
  return JSON.parse(json, (k, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(9)) : v));
}

describe('worker threads over a large run', () => {
  it('read the batches in several threads (and say so)', async () => {
    const d = writeRunLogs(run());
    cleanups.push(d.cleanup);
    process.env[BATCH_ENV] = TINY_BATCH_MIB;
    for (const workers of [1, 2, 3]) {
      process.env[WORKERS_ENV] = String(workers);
      const read = await readInBatches({ paths: [d.dir] }, capture(), new StatsTask({ type: 'name' }));
      assert.equal(read.workers, workers);
      assert.ok(read.batches >= workers, `${read.batches} batches`);
      assert.equal(read.stats.spans, run().length);
    }
  });

  const COMMANDS = {
    stats: (dir: string, format: 'text' | 'json') => (c: ReturnType<typeof capture>) => stats({ paths: [dir], format }, c),
    'stats --by attribute:http.route': (dir: string, format: 'text' | 'json') => (c: ReturnType<typeof capture>) => stats({ paths: [dir], by: 'attribute:http.route', format }, c),
    anomalies: (dir: string, format: 'text' | 'json') => (c: ReturnType<typeof capture>) => anomalies({ paths: [dir], format }, c),
    'why --all': (dir: string, format: 'text' | 'json') => (c: ReturnType<typeof capture>) => why({ paths: [dir], all: true, format }, c),
  };
  for (const [name, cmd] of Object.entries(COMMANDS)) {
    it(`${name}: two threads give the answer of one (text and JSON)`, async () => {
      const d = writeRunLogs(run());
      cleanups.push(d.cleanup);
      const one = { text: await answer(cmd(d.dir, 'text'), 1), json: await answer(cmd(d.dir, 'json'), 1) };
      assert.match(one.text, name === 'anomalies' ? /error_span/ : /\d/);
      for (const workers of [2]) {
        const many = { text: await answer(cmd(d.dir, 'text'), workers), json: await answer(cmd(d.dir, 'json'), workers) };
        // anomaly examples are listed in the order they are met, batch by batch
        if (name === 'anomalies') assert.deepEqual(many.text.split('\n').sort(), one.text.split('\n').sort());
        else assert.equal(many.text, one.text);
        assert.deepEqual(rounded(many.json), rounded(one.json));
      }
    });
  }
});

describe('worker threads that fail', () => {
  it('leave the answer to this thread, with a warning', async () => {
    const d = writeRunLogs(run());
    cleanups.push(d.cleanup);
    const one = await answer((c) => stats({ paths: [d.dir], format: 'json' }, c), 1);
    // each worker fails as it starts, as one that runs out of memory does
    failWorkersForTests('out of memory');
    try {
      process.env[BATCH_ENV] = TINY_BATCH_MIB;
      process.env[WORKERS_ENV] = '2';
      const c = capture();
      const read = await readInBatches({ paths: [d.dir] }, c, new StatsTask({ type: 'name' }));
      assert.equal(read.workers, 1);
      assert.match(c.err, /warning: the trace reader threads failed \(.+\); reading in one thread/);
      assert.deepEqual(rounded(await answer((c2) => stats({ paths: [d.dir], format: 'json' }, c2), 2)), rounded(one));
    } finally {
      failWorkersForTests();
    }
  });
});

describe('merging the sums of two threads', () => {
  // the gym.job trace split between two sets, as two workers read it
  function twoSets(spans: FixtureSpan[], splitAt: number) {
    const records = toRecords(spans);
    const job = records.find((r) => r.name === 'gym.job')!;
    const shared = new Set([job.spanId]);
    const sets = [records.slice(0, splitAt), records.slice(splitAt)].map((part) => {
      const set = assembleTraces(part, { externalParents: shared });
      return { set, rollouts: findRollouts(set) };
    });
    return { sets, shared };
  }

  it('StatsAccumulator: merged state (through a structured clone) equals adding both sets in one', () => {
    const spans = run();
    const { sets, shared } = twoSets(spans, 100);
    const one = new StatsAccumulator();
    for (const s of sets) one.add(s.set, s.rollouts, shared);
    const [a, b] = [new StatsAccumulator(), new StatsAccumulator()];
    a.add(sets[0]!.set, sets[0]!.rollouts, shared);
    b.add(sets[1]!.set, sets[1]!.rollouts, shared);
    a.merge(structuredClone(b.state()));
    const expected = one.finish();
    assert.deepEqual(a.finish(), expected);
    // the split gym.job's self time needs both halves: it is there once, and not negative
    const job = expected.groups.find((g) => g.key === 'gym.job')!;
    assert.equal(job.count, 1);
    assert.ok(job.totalSelfMs >= 0);
  });

  it('AnomalyAccumulator: quotas, order and a rootless trace seen on both sides, as in one', () => {
    const { sets } = twoSets(run(), 250);
    for (const maxPerKind of [1, 2, 1000]) {
      const one = new AnomalyAccumulator({ maxPerKind });
      for (const s of sets) one.add(s.set, s.rollouts);
      const [a, b] = [new AnomalyAccumulator({ maxPerKind }), new AnomalyAccumulator({ maxPerKind })];
      a.add(sets[0]!.set, sets[0]!.rollouts);
      b.add(sets[1]!.set, sets[1]!.rollouts);
      a.merge(structuredClone(b.state()));
      const expected = one.finish();
      assert.deepEqual(a.finish(), expected, `maxPerKind ${maxPerKind}`);
      assert.ok(expected.counts.error_span >= 2 && expected.counts.missing_verify >= 2);
    }
  });

  it('AnomalyAccumulator: a trace without its root, split over both sides, is one finding with every span', () => {
    const lost = 'e'.repeat(32);
    const records = toRecords([
      bare('a', 'aaaaaaaaaaaaaaa1', 'bbbbbbbbbbbbbbbb', 1, 2, { traceId: lost }),
      bare('b', 'aaaaaaaaaaaaaaa2', 'bbbbbbbbbbbbbbbb', 1, 2, { traceId: lost }),
      bare('c', 'aaaaaaaaaaaaaaa3', 'bbbbbbbbbbbbbbbb', 1, 2, { traceId: lost }),
    ]);
    const [x, y] = [assembleTraces(records.slice(0, 1)), assembleTraces(records.slice(1))];
    const [a, b] = [new AnomalyAccumulator(), new AnomalyAccumulator()];
    a.add(x, []);
    b.add(y, []);
    a.merge(structuredClone(b.state()));
    const report = a.finish();
    assert.equal(report.counts.root_missing, 1);
    assert.deepEqual(
      report.findings.filter((f) => f.kind === 'root_missing'),
      [{ kind: 'root_missing', traceId: lost, spanCount: 3 }],
    );
  });
});

describe('sharePartitions', () => {
  it('gives each worker consecutive partitions of about equal bytes, every partition once', () => {
    const bytes = [10, 10, 10, 10, 10, 10, 50, 10];
    assert.deepEqual(sharePartitions(bytes, 2), [
      [0, 1, 2, 3, 4, 5],
      [6, 7],
    ]);
    assert.deepEqual(
      sharePartitions(bytes, 3).flat(),
      bytes.map((_, p) => p),
    );
    assert.equal(sharePartitions([5], 4).length, 1);
    assert.deepEqual(sharePartitions([], 2), []);
  });
});
