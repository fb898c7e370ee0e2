// The Parquet store a run's first command converts its logs into (`src/store/`): later commands
// read it; it follows files that grow (a truncated last line waits for its end), is rebuilt with a
// message when deleted or damaged, is shared safely by two commands, reads both console record
// shapes, and is never left half written by Ctrl-C.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { show } from '../src/commands/show.js';
import { sql } from '../src/commands/sql.js';
import { stats } from '../src/commands/stats.js';
import { why } from '../src/commands/why.js';
import { openStore } from '../src/store/open-store.js';
import type { TraceStore } from '../src/store/open-store.js';
import { LOCK_FILE } from '../src/store/store-lock.js';
import { MANIFEST_FILE } from '../src/store/store-manifest.js';
import type { StoreManifest } from '../src/store/store-manifest.js';
import { capture } from './support/capture.js';
import { AGENT, bare, consoleLine, defaultPresetSpans, rolloutSpans, tempDir, writeRunLogs } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';
import { leanFiles, leanLine, resourceLine } from './support/lean-records.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

const STORE = '.gym-trace-store';

async function statsJson(dir: string): Promise<{ out: string; err: string; groups: Array<{ key: string; count: number }> }> {
  const c = capture();
  assert.equal(await stats({ paths: [dir], format: 'json' }, c), 0, c.err);
  return { out: c.out, err: c.err, groups: (JSON.parse(c.out) as { groups: Array<{ key: string; count: number }> }).groups };
}

async function text(cmd: (c: ReturnType<typeof capture>) => Promise<number>): Promise<string> {
  const c = capture();
  assert.equal(await cmd(c), 0, c.err);
  return c.out;
}

function manifestOf(dir: string): StoreManifest {
  return JSON.parse(readFileSync(join(dir, STORE, MANIFEST_FILE), 'utf8')) as StoreManifest;
}

function countOf(groups: Array<{ key: string; count: number }>, key: string): number | undefined {
  return groups.find((g) => g.key === key)?.count;
}

// compact console lines only (no log text): the fast path (DuckDB's read_json) reads them
function compactRun(spans: FixtureSpan[]) {
  const d = writeRunLogs(spans, false);
  cleanups.push(d.cleanup);
  return d;
}

describe('the trace store', () => {
  it('converts only what a growing file appends, and answers as if read whole', async () => {
    const d = compactRun(rolloutSpans({ rolloutId: '0-0', reward: 1 }));
    const first = await statsJson(d.dir);
    assert.equal(countOf(first.groups, 'gym.rollout'), 1);
    const chunks = manifestOf(d.dir).files.find((f) => f.path.endsWith('agent.log'))!.chunks;
    appendFileSync(d.path('agent.log'), consoleLine(bare('late span', 'dddddddddddddddd', null, 0, 1, { service: AGENT })) + '\n');
    const second = await statsJson(d.dir);
    assert.equal(countOf(second.groups, 'late span'), 1);
    assert.equal(countOf(second.groups, 'gym.rollout'), 1);
    const grown = manifestOf(d.dir).files.find((f) => f.path.endsWith('agent.log'))!;
    assert.deepEqual(grown.chunks.slice(0, chunks.length), chunks, 'the first conversion is kept');
    assert.equal(grown.chunks.length, chunks.length + 1, 'the appended line is a chunk of its own');
    // a new file joins the run
    writeFileSync(d.path('extra.log'), consoleLine(bare('new file span', 'eeeeeeeeeeeeeeee', null, 0, 1, { service: AGENT })) + '\n');
    assert.equal(countOf((await statsJson(d.dir)).groups, 'new file span'), 1);
    // a fresh read of the same files gives the same answer
    rmSync(join(d.dir, STORE), { recursive: true });
    assert.equal((await statsJson(d.dir)).out, (await statsJson(d.dir)).out);
  });

  it('leaves a last line without its newline for the next command', async () => {
    for (const compact of [true, false]) {
      const spans = rolloutSpans({ rolloutId: '0-0', reward: 1 });
      const d = writeRunLogs(spans, !compact);
      cleanups.push(d.cleanup);
      const late = consoleLine(bare('late span', 'dddddddddddddddd', null, 0, 1, { service: AGENT }));
      appendFileSync(d.path('agent.log'), late.slice(0, 40));
      const cut = await statsJson(d.dir);
      assert.equal(countOf(cut.groups, 'late span'), undefined);
      assert.doesNotMatch(cut.err, /malformed/);
      appendFileSync(d.path('agent.log'), late.slice(40) + '\n');
      assert.equal(countOf((await statsJson(d.dir)).groups, 'late span'), 1, compact ? 'fast path' : 'reader path');
    }
  });

  it('is rebuilt with a message when deleted or damaged, with the same answers', async () => {
    const d = compactRun(defaultPresetSpans(['0-0', '1-0']));
    const expected = await statsJson(d.dir);
    rmSync(join(d.dir, STORE), { recursive: true });
    assert.equal((await statsJson(d.dir)).out, expected.out);
    writeFileSync(join(d.dir, STORE, MANIFEST_FILE), '{"version":1,"files":[{"pa');
    const garbled = await statsJson(d.dir);
    assert.match(garbled.err, /trace store in .* cannot be used \(its manifest is not valid JSON\); rebuilding it/);
    assert.equal(garbled.out, expected.out);
    const part = readdirSync(join(d.dir, STORE)).find((f) => f.startsWith('spans-'))!;
    truncateSync(join(d.dir, STORE, part), 10);
    const cut = await statsJson(d.dir);
    assert.match(cut.err, new RegExp(`${part} is 10 bytes, not \\d+\\); rebuilding it`));
    assert.equal(cut.out, expected.out);
    assert.equal((await statsJson(d.dir)).err, '', 'rebuilt once');
  });

  it('lets two commands share it: both answer, one converting while the other waits', async () => {
    const d = compactRun(defaultPresetSpans(['0-0', '1-0', '2-0']));
    const [a, b] = await Promise.all([statsJson(d.dir), statsJson(d.dir)]);
    assert.equal(a.out, b.out);
    assert.equal(
      manifestOf(d.dir).files.reduce((n, f) => n + f.chunks.length, 0),
      manifestOf(d.dir).files.length,
      'each file converted once',
    );
    assert.equal(existsSync(join(d.dir, STORE, LOCK_FILE)), false);
  });

  it('gives each command a spill directory of its own, keeps a running one and removes a dead one', async () => {
    const d = compactRun(defaultPresetSpans(['0-0', '1-0']));
    const dead = spawn(process.execPath, ['-e', '0']);
    await once(dead, 'exit');
    // a directory left by a command that died, and one of a command still running (a live pid)
    const holder = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    await once(holder, 'spawn');
    cleanups.push(() => holder.kill('SIGTERM'));
    mkdirSync(join(d.dir, STORE, `spill-${dead.pid}-0.tmp`), { recursive: true });
    mkdirSync(join(d.dir, STORE, `spill-${holder.pid}-0.tmp`), { recursive: true });
    const store = await openStore([d.dir], capture());
    const other = await openStore([d.dir], capture());
    const spillOf = async (s: TraceStore) => String((await s.duck.connection.runAndReadAll(`SELECT current_setting('temp_directory')`)).getRows()[0]![0]);
    const [mine, theirs] = [await spillOf(store), await spillOf(other)];
    assert.notEqual(mine, theirs);
    await store.close();
    assert.equal(existsSync(mine), false, 'removed when its command ends');
    // the other store still answers
    assert.equal(Number((await other.duck.connection.runAndReadAll('SELECT 42')).getRows()[0]![0]), 42);
    await other.close();
    const left = readdirSync(join(d.dir, STORE)).filter((n) => n.startsWith('spill-'));
    assert.deepEqual(left, [`spill-${holder.pid}-0.tmp`], "the dead command's directory removed by the conversion, the running one's kept");
  });

  it('waits for a live process holding the lock, and takes over a lock whose holder is gone', async () => {
    const d = compactRun(rolloutSpans({ rolloutId: '0-0', reward: 1 }));
    const holder = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    await once(holder, 'spawn');
    mkdirSync(join(d.dir, STORE), { recursive: true });
    writeFileSync(join(d.dir, STORE, LOCK_FILE), `${holder.pid} other`);
    const c = capture();
    let told!: () => void;
    const waiting = new Promise<void>((resolve) => (told = resolve));
    const error = c.error.bind(c);
    c.error = (t: string) => {
      error(t);
      if (t.startsWith('waiting for')) told();
    };
    const running = stats({ paths: [d.dir], format: 'json' }, c);
    await waiting;
    assert.match(c.err, new RegExp(`waiting for another gym trace command \\(pid ${holder.pid}\\)`));
    holder.kill('SIGTERM');
    assert.equal(await running, 0, c.err);
    assert.equal(countOf((JSON.parse(c.out) as { groups: Array<{ key: string; count: number }> }).groups, 'gym.rollout'), 1);
  });

  it('reads the lean record (resource once per stream, two workers in one file) as the full one', async () => {
    const spans = defaultPresetSpans(['0-0', '1-0', '2-0']);
    const full = compactRun(spans);
    for (const twoWorkers of [false, true]) {
      const lean = tempDir(leanFiles(spans, twoWorkers));
      cleanups.push(lean.cleanup);
      for (const format of ['text', 'json'] as const) {
        assert.equal(await text((c) => stats({ paths: [lean.dir], format }, c)), await text((c) => stats({ paths: [full.dir], format }, c)));
        assert.equal(await text((c) => why({ paths: [lean.dir], all: true, format }, c)), await text((c) => why({ paths: [full.dir], all: true, format }, c)));
        // the same tree; the lines of the lean files are one or two further down (their resource records)
        const shown = async (dir: string) => (await text((c) => show({ paths: [dir], rollout: '1-0', format }, c))).replaceAll(dir, '<dir>').replace(/"line": \d+/g, '"line": n');
        assert.equal(await shown(lean.dir), await shown(full.dir));
      }
      // each line takes its own process's resource, on the fast path and on the reader's
      const q = (dir: string) => text((c) => sql({ paths: [dir], query: 'SELECT service, resource_attributes FROM spans GROUP BY ALL ORDER BY ALL', format: 'json' }, c));
      assert.equal(await q(lean.dir), await q(full.dir));
      appendFileSync(lean.path('agent.log'), 'plain log text sends this file to the reader\n');
      assert.equal(await q(lean.dir), await q(full.dir));
    }
  });

  it('gives a lean line the latest resource record of its process, else its service name alone', async () => {
    const [a, b, c] = rolloutSpans({ rolloutId: '0-0', reward: 1 }).filter((s) => s.service === AGENT);
    const d = tempDir({
      'agent.log': [resourceLine(AGENT, 7, { v: 1 }), leanLine(a!, 7), resourceLine(AGENT, 7, { v: 2 }), leanLine(b!, 7), leanLine(c!, 8)].join('\n') + '\n',
    });
    cleanups.push(d.cleanup);
    const rows = JSON.parse(await text((q) => sql({ paths: [d.dir], query: 'SELECT span_id, resource_attributes FROM spans ORDER BY source_line', format: 'json' }, q))) as Array<{
      span_id: string;
      resource_attributes: unknown;
    }>;
    assert.deepEqual(
      rows.map((r) => JSON.parse(String(r.resource_attributes)) as unknown),
      [{ 'service.name': AGENT, v: 1 }, { 'service.name': AGENT, v: 2 }, { 'service.name': AGENT }],
    );
  });

  it('is left whole when the conversion is interrupted (SIGINT), and the next command finishes it', async () => {
    const ids = Array.from({ length: 400 }, (_, i) => `${i}-0`);
    const d = compactRun(defaultPresetSpans(ids));
    const expected = await statsJson(d.dir);
    rmSync(join(d.dir, STORE), { recursive: true });
    const main = join(import.meta.dirname, 'support', 'cli-main.ts');
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main, 'trace', 'stats', d.dir], { stdio: 'ignore' });
    // interrupted once it holds the lock, converting
    const lock = join(d.dir, STORE, LOCK_FILE);
    const exited = once(child, 'exit');
    let finished = false;
    void exited.then(() => (finished = true));
    while (!existsSync(lock) && !finished) await new Promise((r) => setImmediate(r));
    child.kill('SIGINT');
    await exited;
    const m = existsSync(join(d.dir, STORE, MANIFEST_FILE)) ? manifestOf(d.dir) : null;
    // whatever the manifest lists is there whole
    for (const f of m?.files ?? []) for (const chunk of f.chunks) assert.ok(existsSync(join(d.dir, STORE, `spans-${chunk.n}.parquet`)));
    const next = await statsJson(d.dir);
    assert.equal(next.out, expected.out);
    assert.deepEqual(
      readdirSync(join(d.dir, STORE)).filter((f) => f.includes('.tmp') || f === LOCK_FILE),
      [],
      'no temporary files are left',
    );
  });
});
