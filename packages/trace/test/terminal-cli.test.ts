// The gym trace commands read the terminal width from COLUMNS when piped (here: a pipe).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rolloutSpans, writeRunLogs } from './support/fixtures.js';

const MAIN = fileURLToPath(new URL('./support/cli-main.ts', import.meta.url));
const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

let dir: string;
before(() => {
  const d = writeRunLogs([...rolloutSpans({ rolloutId: '0-0' }), ...rolloutSpans({ rolloutId: '1-0', atMs: 2000 })]);
  cleanups.push(d.cleanup);
  dir = d.dir;
});

function gym(env: NodeJS.ProcessEnv, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('gym trace and COLUMNS', () => {
  for (const args of [['show', '--rollout', '0-0'], ['why', '0-0'], ['stats']]) {
    it(`gym trace ${args.join(' ')} fits COLUMNS=80, and is wider without it`, () => {
      const narrow = gym({ COLUMNS: '80' }, 'trace', ...args, dir);
      assert.equal(narrow.code, 0, narrow.err);
      for (const line of narrow.out.split('\n')) assert.ok(line.length <= 80, `${line.length}: ${line}`);
      const wide = gym({ COLUMNS: '' }, 'trace', ...args, dir);
      assert.ok(wide.out.split('\n').some((l) => l.length > 80));
      assert.doesNotMatch(narrow.out + wide.out, /\x1b\[/, 'no colour on a pipe');
    });
  }
});
