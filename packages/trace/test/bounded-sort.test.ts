// DuckDB's sort holds its rows' text in memory and fails beyond its limit rather than spill it, so
// the read that hands a run over trace by trace cuts the trace order into slices that fit. A run
// whose sorted rows need several times the limit (here 32MB against a run that needed more before
// the slices) gives the same answers as with the default limit.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anomalies } from '../src/commands/anomalies.js';
import { BATCH_ENV } from '../src/commands/load-batches.js';
import { stats } from '../src/commands/stats.js';
import { why } from '../src/commands/why.js';
import { MEMORY_LIMIT_ENV } from '../src/store/duck.js';
import { capture } from './support/capture.js';
import { defaultPresetSpans, linkedRolloutSpans, writeRunLogs } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

async function run(cmd: (c: ReturnType<typeof capture>) => Promise<number>): Promise<string> {
  const c = capture();
  assert.equal(await cmd(c), 0, c.err);
  return c.out;
}

async function withEnv<T>(env: Record<string, string>, body: () => Promise<T>): Promise<T> {
  Object.assign(process.env, env);
  try {
    return await body();
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
  }
}

type Capture = ReturnType<typeof capture>;

/** Asserts that stats, anomalies and why --all over `dir`, read trace by trace, answer the same at 32MB as at the default limit. */
async function sameAtTightLimit(dir: string): Promise<void> {
  const commands = {
    stats: (c: Capture) => stats({ paths: [dir], format: 'json' }, c),
    anomalies: (c: Capture) => anomalies({ paths: [dir] }, c),
    'why --all': (c: Capture) => why({ paths: [dir], all: true, format: 'json' }, c),
  };
  // batches of 1 MiB's worth of spans: the run is read trace by trace
  for (const [name, cmd] of Object.entries(commands)) {
    const roomy = await withEnv({ [BATCH_ENV]: '1' }, () => run(cmd));
    const tight = await withEnv({ [BATCH_ENV]: '1', [MEMORY_LIMIT_ENV]: '32MB' }, () => run(cmd));
    assert.equal(tight, roomy, name);
  }
}

describe('the trace-by-trace read within a small memory limit', () => {
  it('stats, anomalies and why --all give the same answers at 32MB as at the default limit', async () => {
    // one old-style trace of 3,000 rollouts under gym.job (split into its rollouts) and 1,500
    // rollouts of a trace each: about 45,000 spans
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}-0`);
    const d = writeRunLogs([...defaultPresetSpans(ids('', 3000)), ...linkedRolloutSpans(ids('l', 1500))]);
    cleanups.push(d.cleanup);
    await sameAtTightLimit(d.dir);
  });

  it('a run of a trace per rollout (none split): the same answers in slices of trace starts as in one sort', async () => {
    // 2,500 rollouts of a trace each, linked to the run's gym.job: no trace is large, so the
    // traces are read by their start; at 32MB in several slices, at the default limit in one
    const d = writeRunLogs(linkedRolloutSpans(Array.from({ length: 2500 }, (_, i) => `${i}-0`)));
    cleanups.push(d.cleanup);
    await sameAtTightLimit(d.dir);
  });

  it('a limit too small for the read ends with GYM_TRACE_OUT_OF_MEMORY, saying what to set', async () => {
    const d = writeRunLogs(defaultPresetSpans(Array.from({ length: 1000 }, (_, i) => `${i}-0`)));
    cleanups.push(d.cleanup);
    // the store built at the default limit, then read within 8MB
    await withEnv({ [BATCH_ENV]: '1' }, () => run((c) => anomalies({ paths: [d.dir] }, c)));
    const c = capture();
    assert.equal(await withEnv({ [BATCH_ENV]: '1', [MEMORY_LIMIT_ENV]: '8MB' }, () => why({ paths: [d.dir], all: true }, c)), 2);
    assert.match(c.err, /^error \[GYM_TRACE_OUT_OF_MEMORY\]: DuckDB needed more than its memory limit \(8MB\) to read this run: Out of Memory Error: .*GYM_TRACE_MEMORY_LIMIT=2GB/);
  });
});
