// With no paths, `gym trace` reads the newest run by what the run is — the start time its
// directory is named after — not by modification time, which writing a trace store into an older
// run changes; and every command says on stderr which run it read, terminal or not.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anomalies } from '../src/commands/anomalies.js';
import { convert } from '../src/commands/convert.js';
import { report } from '../src/commands/report.js';
import { show } from '../src/commands/show.js';
import { sql } from '../src/commands/sql.js';
import { stats } from '../src/commands/stats.js';
import { top } from '../src/commands/top.js';
import { why } from '../src/commands/why.js';
import { capture } from './support/capture.js';
import { consoleLine, rolloutSpans, tempDir } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

/** A working directory with one traced run per entry: [directory name, rollout id, mtime in s]. */
function runs(entries: ReadonlyArray<readonly [string, string, number]>): { cwd: string; logs: string } {
  const d = tempDir();
  cleanups.push(d.cleanup);
  const logs = join(d.dir, '.gym', 'logs');
  for (const [name, rolloutId, mtime] of entries) {
    mkdirSync(join(logs, name), { recursive: true });
    writeFileSync(join(logs, name, 'agent.log'), rolloutSpans({ rolloutId }).map(consoleLine).join('\n'));
    utimesSync(join(logs, name), mtime, mtime);
  }
  return { cwd: d.dir, logs };
}

describe('which run gym trace reads', () => {
  it('the run started last, by its directory name, though an older run was modified later', async () => {
    const { cwd } = runs([
      ['20260101T090000Z', 'older', 3_000_000],
      ['20260101T100000Z', 'newer', 1_000_000],
      ['20260101T100000Z-2', 'newest', 1_000_000],
    ]);
    const c = capture();
    assert.equal(await show({ cwd }, c), 0, c.err);
    assert.match(c.out, /^rollout newest/);
    assert.match(c.err, /^reading \.gym\/logs\/20260101T100000Z-2 \(the newest run with spans\)$/m);
  });

  it("a run named otherwise (copied, renamed) is placed by its manifest's start time", async () => {
    const { cwd, logs } = runs([
      ['20260101T100000Z', 'named', 2_000_000],
      ['copied-run', 'copied', 1_000_000],
    ]);
    writeFileSync(join(logs, 'copied-run', '.gym-run'), '{"started_at":"2026-01-01T11:00:00.000Z"}\n');
    const c = capture();
    assert.equal(await show({ cwd }, c), 0, c.err);
    assert.match(c.out, /^rollout copied/);
  });

  it('writing a trace store into an older run does not make it the newest', async () => {
    const { cwd, logs } = runs([
      ['20260101T090000Z', 'older', 1_000_000],
      ['20260101T100000Z', 'newer', 2_000_000],
    ]);
    // a command on the older run writes its store (.gym-trace-store/) into that directory
    const older = capture();
    assert.equal(await stats({ paths: [join(logs, '20260101T090000Z')] }, older), 0, older.err);
    const c = capture();
    assert.equal(await show({ cwd }, c), 0, c.err);
    assert.match(c.out, /^rollout newer/);
  });

  it('counts every newer run without spans', async () => {
    const { cwd, logs } = runs([['20260101T090000Z', 'traced', 1_000_000]]);
    for (const name of ['20260101T100000Z', '20260101T110000Z', '20260101T120000Z']) {
      mkdirSync(join(logs, name));
      writeFileSync(join(logs, name, 'agent.log'), '{"level":30,"msg":"listening"}\n');
    }
    const c = capture();
    assert.equal(await show({ cwd }, c), 0, c.err);
    assert.match(c.err, /the 3 newer runs have no spans/);
  });

  it('every command names the run it read on stderr, once, without a terminal', async () => {
    const { cwd } = runs([['20260101T090000Z', '0-0', 1_000_000]]);
    const reading = /^reading \.gym\/logs\/20260101T090000Z \(the newest run with spans\)$/m;
    const commands: Array<[string, (c: ReturnType<typeof capture>) => Promise<number>]> = [
      ['show', (c) => show({ cwd }, c)],
      ['show --rollout', (c) => show({ cwd, rollout: '0-0' }, c)],
      ['why', (c) => why({ cwd, id: '0-0' }, c)],
      ['why --all', (c) => why({ cwd, all: true }, c)],
      ['stats', (c) => stats({ cwd }, c)],
      ['anomalies', (c) => anomalies({ cwd }, c)],
      ['sql', (c) => sql({ cwd, query: 'SELECT count(*) AS n FROM spans' }, c)],
      ['convert', (c) => convert({ cwd, to: 'otlp-json' }, c)],
      ['report', (c) => report({ cwd, out: join(cwd, 'report.html') }, c)],
      ['top', (c) => top({ cwd, once: true }, c)],
    ];
    for (const [name, run] of commands) {
      const c = capture();
      assert.equal(await run(c), 0, `${name}: ${c.err}`);
      assert.match(c.err, reading, name);
      assert.equal(c.err.match(/^reading /gm)?.length, 1, `${name} says it once: ${c.err}`);
    }
  });
});
