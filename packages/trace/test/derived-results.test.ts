// What `stats`, `anomalies`, `why --all` and `report` compute from the whole run in JavaScript is
// kept in the store's `derived/` (src/store/derived-results.ts, rollout-time-split.ts): the next
// command reads it and answers the same; a file that grows makes it computed again, to the answer
// of a store built from scratch; another shape of read computes its own.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anomalies } from '../src/commands/anomalies.js';
import { BATCH_ENV } from '../src/commands/load-batches.js';
import { report } from '../src/commands/report.js';
import { stats } from '../src/commands/stats.js';
import { why } from '../src/commands/why.js';
import { openStore, STORE_DIR_NAME } from '../src/store/open-store.js';
import { DERIVED_DIR } from '../src/store/derived-results.js';
import { rolloutTimeSplit } from '../src/store/rollout-time-split.js';
import { capture } from './support/capture.js';
import { consoleLine, defaultPresetSpans, rolloutSpans, tempDir, writeRunLogs } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

type Format = 'text' | 'json';

const COMMANDS: Record<string, (dir: string, format: Format) => Promise<string>> = {
  stats: (dir, format) => run((c) => stats({ paths: [dir], format }, c)),
  anomalies: (dir, format) => run((c) => anomalies({ paths: [dir], format }, c)),
  'why --all': (dir, format) => run((c) => why({ paths: [dir], all: true, format }, c)),
  // the page without its date
  report: async (dir) => {
    const elsewhere = tempDir();
    cleanups.push(elsewhere.cleanup);
    const file = elsewhere.path('report.html');
    await run((c) => report({ paths: [dir], out: file }, c));
    return readFileSync(file, 'utf8').replace(/"generatedAt":"[^"]*"/, '');
  },
};

async function run(cmd: (c: ReturnType<typeof capture>) => Promise<number>): Promise<string> {
  const c = capture();
  assert.equal(await cmd(c), 0, c.err);
  return c.out;
}

function derived(dir: string): string[] {
  try {
    return readdirSync(join(dir, STORE_DIR_NAME, DERIVED_DIR)).sort();
  } catch {
    return [];
  }
}

// A fresh copy of the logs alone: its store is built from scratch
function fromScratch(dir: string): string {
  const copy = tempDir();
  cleanups.push(copy.cleanup);
  cpSync(dir, copy.dir, { recursive: true });
  rmSync(join(copy.dir, STORE_DIR_NAME), { recursive: true, force: true });
  return copy.dir;
}

describe('derived results in the store', () => {
  it('are written by the first command and read by the next, to the same answer', async () => {
    const d = writeRunLogs([...defaultPresetSpans(['0-0', '1-0']), ...rolloutSpans({ rolloutId: 'solo', atMs: 300, noVerify: true })]);
    cleanups.push(d.cleanup);
    for (const [name, cmd] of Object.entries(COMMANDS))
      for (const format of ['text', 'json'] as const) {
        const first = await cmd(d.dir, format);
        const kept = derived(d.dir);
        assert.equal(await cmd(d.dir, format), first, name);
        assert.deepEqual(derived(d.dir), kept, `${name}: nothing more written`);
      }
    // one each: the rollout time split (a table), the answers of anomalies and why --all, the report's data,
    // the statistics table by name (`stats`' and the report's)
    assert.deepEqual(
      derived(d.dir).map((f) => f.replace(/-[0-9a-f]{16}-[0-9a-f]{16}\./, '.')),
      ['anomalies.json', 'report.json', 'rollout-time-split.parquet', 'stats.json', 'why-all.json'],
    );
    const store = await openStore([d.dir], { error: () => undefined });
    try {
      const { cached, totals } = await rolloutTimeSplit(store, { batchBytes: 64 * 1024 * 1024, memoryLimit: null }, () => Promise.reject(new Error('not read from the table')));
      assert.equal(cached, true);
      assert.equal(totals.count, 3);
    } finally {
      await store.close();
    }
  });

  it('are computed again once a file grows, to the answer of a store built from scratch, and the old ones removed', async () => {
    const d = writeRunLogs(defaultPresetSpans(['0-0', '1-0']));
    cleanups.push(d.cleanup);
    for (const cmd of Object.values(COMMANDS)) await cmd(d.dir, 'json');
    const old = derived(d.dir);
    // a new rollout, appended to the agent's file
    const added = rolloutSpans({ rolloutId: 'late', atMs: 900, noVerify: true }).map((s) => consoleLine(s));
    appendFileSync(d.path('agent.log'), added.join('\n') + '\n');
    for (const [name, cmd] of Object.entries(COMMANDS))
      for (const format of ['text', 'json'] as const) {
        const answer = (await cmd(d.dir, format)).replaceAll(d.dir, '<dir>');
        const scratch = fromScratch(d.dir);
        assert.equal(answer, (await cmd(scratch, format)).replaceAll(scratch, '<dir>'), `${name} ${format}`);
        if (name === 'anomalies' && format === 'json') assert.match(answer, /"rolloutId": "late"/);
      }
    const now = derived(d.dir);
    assert.equal(now.length, old.length, now.join(', '));
    assert.deepEqual(
      now.filter((f) => old.includes(f)),
      [],
    );
  });

  it("keep stats' table per grouping, and answer from it", async () => {
    const d = writeRunLogs(defaultPresetSpans(['0-0', '1-0']));
    cleanups.push(d.cleanup);
    const byName = await COMMANDS['stats']!(d.dir, 'json');
    const tables = () => derived(d.dir).filter((f) => f.startsWith('stats-'));
    assert.equal(tables().length, 1);
    const byService = await run((c) => stats({ paths: [d.dir], by: 'service', format: 'json' }, c));
    assert.notEqual(byService, byName);
    assert.equal(tables().length, 2, 'another grouping computes its own');
    // the table is read back, not computed again: an edit of the kept one shows
    for (const file of tables()) {
      const path = join(d.dir, STORE_DIR_NAME, DERIVED_DIR, file);
      const kept = JSON.parse(readFileSync(path, 'utf8')) as { by: { type: string }; groups: Array<{ count: number }> };
      if (kept.by.type !== 'name') continue;
      kept.groups[0]!.count = 424242;
      writeFileSync(path, JSON.stringify(kept));
    }
    assert.match(await COMMANDS['stats']!(d.dir, 'json'), /"count": 424242/);
    assert.equal(await run((c) => stats({ paths: [d.dir], by: 'service', format: 'json' }, c)), byService);
  });

  it('are kept per shape of read: batches of another size compute their own', async () => {
    const d = writeRunLogs(defaultPresetSpans(['0-0', '1-0', '2-0']));
    cleanups.push(d.cleanup);
    await COMMANDS['why --all']!(d.dir, 'json');
    const whole = derived(d.dir);
    process.env[BATCH_ENV] = '0.002';
    try {
      await COMMANDS['why --all']!(d.dir, 'json');
    } finally {
      delete process.env[BATCH_ENV];
    }
    assert.equal(derived(d.dir).length, whole.length + 1);
  });
});
