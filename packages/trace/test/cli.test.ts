import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from '@commander-js/extra-typings';
import { registerTraceCommands } from '../src/cli.js';
import { traceCli, writeTwoRollouts } from './support/trace-cli.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

let dir: string;
before(() => {
  const d = writeTwoRollouts();
  cleanups.push(d.cleanup);
  dir = d.dir;
});

const gym = (...args: string[]) => traceCli(args);

describe('registerTraceCommands', () => {
  it('adds trace with show, why, stats, anomalies, sql, top, convert, push, report and receive', () => {
    const program = new Command('gym');
    registerTraceCommands(program);
    const trace = program.commands.find((c) => c.name() === 'trace')!;
    assert.deepEqual(
      trace.commands.map((c) => c.name()),
      ['show', 'why', 'stats', 'anomalies', 'sql', 'top', 'convert', 'push', 'report', 'receive'],
    );
  });

  it('runs show and why end to end', () => {
    const s = gym('trace', 'show', '--rollout', '1-0', dir);
    assert.equal(s.code, 0, s.err);
    assert.match(s.out, /^\* gym\.rollout +simple_agent +998ms/m);
    const w = gym('trace', 'why', '--all', dir, '--json');
    assert.equal(w.code, 0, w.err);
    assert.equal(JSON.parse(w.out).rollouts, 2);
  });

  it('runs stats, anomalies and convert', () => {
    const s = gym('trace', 'stats', dir, '--by', 'service', '--markdown');
    assert.equal(s.code, 0, s.err);
    assert.match(s.out, /^\| nemo-gym\/policy_model \| 4 \|/m);
    const a = gym('trace', 'anomalies', dir, '--json');
    assert.equal(JSON.parse(a.out).total, 0);
    const c = gym('trace', 'convert', dir, '--to', 'otlp-json');
    assert.equal(c.code, 0, c.err);
    assert.equal(c.out.trim().split('\n').length, 3);
  });

  it('exits 2 with the message for a rollout that is not there', () => {
    const r = gym('trace', 'why', '9-9', dir);
    assert.equal(r.code, 2);
    assert.match(r.err, /GYM_TRACE_ROLLOUT_NOT_FOUND.*Closest ids/);
    assert.equal(r.out, '');
  });

  it('refuses a number flag that is not one before reading any file', () => {
    for (const args of [
      ['show', '--slowest', 'x'],
      ['show', '--slowest', '0'],
      ['stats', '--threshold', '-1'],
      ['sql', 'SELECT 1', '--max-rows', '2.5'],
      ['top', '--interval', '10'],
    ]) {
      // a path that does not exist: the flag is refused first, so it is never looked at
      const r = gym('trace', ...args, '/nonexistent-run-dir');
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.err, /argument '.*' is invalid\. expected a (whole )?number/, r.err);
      assert.doesNotMatch(r.err, /NaN|nonexistent/);
    }
  });
});
