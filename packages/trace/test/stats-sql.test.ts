// `stats`' per-group numbers in SQL over the store (src/store/stats-sql.ts) against the JavaScript
// accumulator over the assembled trees (src/analyze/stats.ts): the same numbers to the last bit,
// on trees with overlapping children, children outliving their parent, duplicates, truncated and
// never-ended spans, attribute values of every JSON type — from both record shapes and both
// conversion paths.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import { computeStats } from '../src/analyze/stats.js';
import type { StatsGrouping } from '../src/analyze/stats.js';
import { BATCH_ENV } from '../src/commands/load-batches.js';
import { stats } from '../src/commands/stats.js';
import { openStore } from '../src/store/open-store.js';
import { readAllSpans, spanRows } from '../src/store/store-read.js';
import { spanStatsSql } from '../src/store/stats-sql.js';
import { capture } from './support/capture.js';
import { AGENT, defaultPresetSpans, MODEL, nextId, RESOURCES, rolloutSpans, tempDir, writeRunLogs } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';
import { leanFiles } from './support/lean-records.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

const GROUPINGS: StatsGrouping[] = [{ type: 'name' }, { type: 'service' }, { type: 'attribute', key: 'shape.value' }, { type: 'attribute', key: 'nemo.gym.rollout.id' }];

// A deterministic stream of numbers in [0, 1) (a linear congruential generator): the run is the same every time.
function numbers(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

// Traces of a few levels where children overlap each other, start before or end after their
// parent; with errors, truncated spans, spans that never ended (end before start), a span that is
// its own parent, a span written twice (the second copy truncated), and attribute values of every type.
function tangledSpans(traces: number): FixtureSpan[] {
  const next = numbers(7);
  const values: unknown[] = ['a', 'b', 3, 3.25, true, false, null, [1, 'x'], { k: 1 }, ''];
  const out: FixtureSpan[] = [];
  for (let t = 0; t < traces; t++) {
    const traceId = nextId(16);
    const root: FixtureSpan = { traceId, spanId: nextId(8), parentSpanId: null, name: 'root', kind: 'SERVER', service: AGENT, startMs: t * 50, endMs: t * 50 + 100 + Math.round(next() * 900) / 7 };
    out.push(root);
    const level = [root];
    for (let depth = 0; depth < 3; depth++) {
      const parent = level[Math.floor(next() * level.length)]!;
      for (let k = 0; k < 1 + Math.floor(next() * 4); k++) {
        const start = parent.startMs - 5 + next() * (parent.endMs - parent.startMs);
        const end = start + next() * (parent.endMs - parent.startMs) * 0.8;
        const r = next();
        const span: FixtureSpan = {
          traceId,
          spanId: nextId(8),
          parentSpanId: parent.spanId,
          name: `op-${Math.floor(next() * 4)}`,
          kind: next() < 0.5 ? 'CLIENT' : 'INTERNAL',
          service: [AGENT, MODEL, RESOURCES][Math.floor(next() * 3)]!,
          startMs: Math.round(start * 1000) / 1000,
          endMs: r < 0.05 ? start - 1 : Math.round(end * 1000) / 1000,
          attributes: { 'shape.value': values[Math.floor(next() * values.length)], ...(r > 0.95 ? { 'nemo.span.truncated': r > 0.97 ? true : 'true' } : {}) },
          ...(r > 0.1 && r < 0.2 ? { status: { code: 'ERROR', message: 'failed' } } : {}),
        };
        out.push(span);
        level.push(span);
      }
    }
    if (t % 7 === 0) out.push({ ...level.at(-1)!, attributes: { 'nemo.span.truncated': true } });
    if (t % 11 === 0) out.push({ ...root, spanId: nextId(8), parentSpanId: null, name: 'self' }, { ...root, spanId: 'f'.repeat(16), parentSpanId: 'f'.repeat(16), name: 'own parent' });
  }
  return out;
}

async function bothWays(dir: string, by: StatsGrouping) {
  const store = await openStore([dir], { error: () => undefined });
  try {
    const set = assembleTraces(await readAllSpans(store, await spanRows(store)));
    return { js: computeStats(set, findRollouts(set), by), sql: await spanStatsSql(store, by) };
  } finally {
    await store.close();
  }
}

describe('stats in SQL', () => {
  const spans = [...tangledSpans(120), ...defaultPresetSpans(['0-0', '1-0', '2-0']), ...rolloutSpans({ rolloutId: 'solo', atMs: 400 })];
  const runs = {
    'console lines among log text (the reader path)': () => writeRunLogs(spans, true),
    'compact console lines (the fast path)': () => writeRunLogs(spans, false),
    'the lean record': () => tempDir(leanFiles(spans, true)),
  };
  for (const [name, write] of Object.entries(runs))
    it(`gives the accumulator's numbers, to the last bit: ${name}`, async () => {
      const d = write();
      cleanups.push(d.cleanup);
      for (const by of GROUPINGS) {
        const { js, sql } = await bothWays(d.dir, by);
        assert.ok(js.groups.length > 3 && js.truncatedExcluded > 0 && js.rolloutCount === 4, JSON.stringify(by));
        assert.deepEqual(sql, js, JSON.stringify(by));
      }
    });

  it('answers in batches of a tiny size as read whole, the time split included', async () => {
    const d = writeRunLogs(spans, false);
    cleanups.push(d.cleanup);
    const run = async () => {
      const c = capture();
      assert.equal(await stats({ paths: [d.dir], format: 'json' }, c), 0, c.err);
      return c.out;
    };
    const whole = await run();
    process.env[BATCH_ENV] = '0.002';
    try {
      const batched = await run();
      const split = (text: string) => (JSON.parse(text) as { timeSplit: { rollouts: number; totalWallMs: number } }).timeSplit;
      assert.deepEqual(JSON.parse(batched).groups, JSON.parse(whole).groups);
      assert.equal(split(batched).rollouts, 4);
      assert.equal(split(batched).totalWallMs, split(whole).totalWallMs);
    } finally {
      delete process.env[BATCH_ENV];
    }
  });
});
