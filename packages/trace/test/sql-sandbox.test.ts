// `gym trace sql` answers over the run's tables only: a statement cannot read other files, write
// any, attach databases, install or load extensions or unlock the settings, unless --allow-files.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { sql } from '../src/commands/sql.js';
import { capture } from './support/capture.js';
import { defaultPresetSpans, tempDir, writeRunLogs } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

let run: string;
let elsewhere: ReturnType<typeof tempDir>;
before(() => {
  const d = writeRunLogs(defaultPresetSpans(['0-0', '1-0']));
  cleanups.push(d.cleanup);
  run = d.dir;
  elsewhere = tempDir({ 'notes.csv': 'rollout,note\n0-0,slow\n1-0,fine\n' });
  cleanups.push(elsewhere.cleanup);
});

async function runSql(query: string, allowFiles = false): Promise<{ code: number; out: string; err: string }> {
  const c = capture();
  const code = await sql({ paths: [run], query, format: 'json', allowFiles }, c);
  return { code, out: c.out, err: c.err };
}

describe('gym trace sql sees only the run', () => {
  it("answers over the run's tables", async () => {
    const r = await runSql('SELECT count(*) AS n FROM rollouts');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), [{ n: 2 }]);
  });

  const refused = [
    ["read_csv('/etc/passwd')", "SELECT * FROM read_csv('/etc/passwd')"],
    ["read_text('/etc/passwd')", "SELECT * FROM read_text('/etc/passwd')"],
    ["glob('/root/*')", "SELECT * FROM glob('/root/*')"],
    ['COPY … TO', () => `COPY (SELECT * FROM spans) TO '${elsewhere.path('out.csv')}'`],
    ['ATTACH', () => `ATTACH '${elsewhere.path('other.duckdb')}' AS other`],
    ['INSTALL', 'INSTALL httpfs'],
    ['LOAD', 'LOAD httpfs'],
    ['turning file access back on', 'SET enable_external_access = true'],
  ] as const;
  for (const [what, query] of refused) {
    it(`refuses ${what} with a clear message`, async () => {
      const r = await runSql(typeof query === 'string' ? query : query());
      assert.equal(r.code, 2);
      assert.match(r.err, /error \[GYM_TRACE_SQL_ERROR\]: DuckDB rejected the query: .*gym trace sql reads only the run's tables .* --allow-files lets a statement read and write files/);
      assert.doesNotMatch(r.out, /root:/);
    });
  }

  it('wrote and attached nothing', () => {
    assert.equal(existsSync(elsewhere.path('out.csv')), false);
    assert.equal(existsSync(elsewhere.path('other.duckdb')), false);
  });

  it('--allow-files lets a statement join a file beside the run and write its result', async () => {
    const joined = await runSql(`SELECT r.rollout_id, n.note FROM rollouts r JOIN read_csv('${elsewhere.path('notes.csv')}') n ON n.rollout = r.rollout_id ORDER BY 1`, true);
    assert.equal(joined.code, 0, joined.err);
    assert.deepEqual(JSON.parse(joined.out), [
      { rollout_id: '0-0', note: 'slow' },
      { rollout_id: '1-0', note: 'fine' },
    ]);
    const copied = await runSql(`COPY (SELECT rollout_id FROM rollouts) TO '${elsewhere.path('rollouts.csv')}'`, true);
    assert.equal(copied.code, 0, copied.err);
    assert.equal(existsSync(elsewhere.path('rollouts.csv')), true);
  });
});
