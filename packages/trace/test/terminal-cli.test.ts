// The gym trace commands read the terminal width from COLUMNS when piped (here: a pipe).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { traceCli, writeTwoRollouts } from './support/trace-cli.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

let dir: string;
before(() => {
  const d = writeTwoRollouts();
  cleanups.push(d.cleanup);
  dir = d.dir;
});

const gym = (env: NodeJS.ProcessEnv, ...args: string[]) => traceCli(args, env);

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
