// `gym trace report` over a large run reads it from the store in batches, and writes the same file
// byte for byte whatever the number of DuckDB threads (`GYM_TRACE_THREADS`): the rows picked for a
// waterfall when many share a duration, a failure rank or a sample rank (a repeated rollout id),
// the row keys, the listed rows and their order, the sums and the run view.
// `GYM_TRACE_BATCH_MIB` set small makes these small runs take the batched path in many batches.
import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ReportTask } from '../src/commands/batch-tasks.js';
import { BATCH_ENV, readInBatches } from '../src/commands/load-batches.js';
import { THREADS_ENV } from '../src/store/duck.js';
import { report } from '../src/commands/report.js';
import type { ReportOptions } from '../src/commands/report.js';
import type { ReportData } from '../src/report/report-data.js';
import { writeBigRun } from '../../../bench/support/big-run.js';
import { capture } from './support/capture.js';
import { defaultPresetSpans, rolloutSpans, tempDir, writeRunLogs } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
afterEach(() => {
  delete process.env[BATCH_ENV];
  delete process.env[THREADS_ENV];
});

// A default-preset run of 120 rollouts that all last as long, ten in flight at a time; every 9th
// fails in the model (the failed tie too), rollout ids repeat every 25 (so do their sample ranks),
// and per-rollout traces of equal length follow, a third of them without their verify call.
function tiedRun(): FixtureSpan[] {
  const ids = Array.from({ length: 120 }, (_, i) => `${i % 25}-0`);
  const job = defaultPresetSpans(ids).map((s) => (s.name === 'gym.model.responses' && Number(s.startMs) % 900 === 12 ? { ...s, status: { code: 'ERROR', message: 'overloaded' } } : s));
  const solo = Array.from({ length: 30 }, (_, i) => rolloutSpans({ rolloutId: `solo-${i % 7}`, atMs: 20_000 + i * 50, noVerify: i % 3 === 0 })).flat();
  return [...job, ...solo];
}

// The page with its one run-dependent field, the time it was generated, made constant.
function reportFile(options: ReportOptions, dir: string, name: string): Promise<string> {
  return (async () => {
    const c = capture();
    const out = `${dir}/${name}`;
    assert.equal(await report({ ...options, paths: [dir], out }, c), 0, c.err);
    return readFileSync(out, 'utf8').replace(/"generatedAt":"[^"]+"/, '"generatedAt":"-"');
  })();
}

async function pages(dir: string, batchMib: string, options: Omit<ReportOptions, 'paths'>, threads: number[]): Promise<string[]> {
  process.env[BATCH_ENV] = batchMib;
  const out: string[] = [];
  for (const n of threads) {
    process.env[THREADS_ENV] = String(n);
    out.push(await reportFile(options, dir, `report-${n}.html`));
  }
  return out;
}

// The pages are 100+ KB: on a difference, show where it starts rather than both pages.
function assertSamePage(actual: string, expected: string): void {
  if (actual === expected) return;
  let i = 0;
  while (actual[i] === expected[i]) i++;
  assert.fail(`the pages differ from character ${i}:\n  ${actual.slice(Math.max(0, i - 80), i + 120)}\n  ${expected.slice(Math.max(0, i - 80), i + 120)}`);
}

function dataOf(page: string): ReportData {
  const m = /<script type="application\/json" id="gym-trace-data">([\s\S]*?)<\/script>/.exec(page);
  assert.ok(m, 'the page embeds its data');
  return JSON.parse(m[1]!) as ReportData;
}

describe('the report of a large run, read in batches', () => {
  it('reads a large run in several batches', async () => {
    const d = writeRunLogs(tiedRun());
    cleanups.push(d.cleanup);
    process.env[BATCH_ENV] = '0.02';
    const read = await readInBatches({ paths: [d.dir] }, capture(), new ReportTask({ maxRollouts: 8, maxSpans: 1000, maxRows: 2000 }));
    assert.ok(read.batches >= 3, `${read.batches} batches`);
  });

  for (const maxRows of [2000, 10]) {
    it(`writes the same file with 1, 2 and 3 threads when rows tie (${maxRows === 10 ? 'capped list' : 'every row listed'})`, async () => {
      const d = writeRunLogs(tiedRun());
      cleanups.push(d.cleanup);
      const [one, ...more] = await pages(d.dir, '0.05', { maxRollouts: 8, maxRows }, [1, 2, 3]);
      for (const page of more) assertSamePage(page, one!);
      const data = dataOf(one!);
      assert.equal(data.summary.rollouts, 150);
      assert.equal(data.listing.capped, maxRows === 10);
      // the ties are real: waterfalls went to some of the rollouts of one duration and not to others
      const picked = data.rows.filter((r) => r.picked === 'slowest');
      assert.ok(picked.length > 0);
      const all = dataOf((await pages(d.dir, '0.05', { maxRollouts: 8, maxRows: 2000 }, [1]))[0]!).rows;
      assert.ok(
        all.some((r) => !r.detail && r.durationMs === picked[0]!.durationMs),
        'a rollout as slow as a picked one was left without a waterfall',
      );
      assert.ok(data.rows.some((r) => r.picked === 'failed'));
      assert.ok(data.rows.some((r) => r.picked === 'sample'));
    });
  }

  it('writes the same file with 1 and 2 threads over a run of 3,000 rollouts with a long tail of durations', async () => {
    const run = tempDir();
    cleanups.push(run.cleanup);
    await writeBigRun(run.dir, 3000);
    const [one, two] = await pages(run.dir, '1', { maxRollouts: 40, maxRows: 100 }, [1, 2]);
    assertSamePage(two!, one!);
    const data = dataOf(one!);
    assert.equal(data.summary.rollouts, 3000);
    assert.equal(data.listing.listed, 40);
    assert.equal(
      data.run.durations.counts.reduce((a, b) => a + b, 0),
      3000,
    );
  });
});
