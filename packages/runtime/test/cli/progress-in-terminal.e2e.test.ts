// In a real terminal (tmux, 80 columns) the progress bar of `gym eval run` is redrawn in place, and
// what else reaches the terminal while it is shown — gym's notice that a server died on stderr, the
// agent's error lines on stdout — starts on a line of its own instead of running on from the bar.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EXAMPLE_EVAL_RUN, freePort, GYM_BIN, isAlive, REPO_ROOT } from '../support/gym-process.js';
import type { ServerInstance } from '../support/gym-process.js';

const tmux = spawnSync('tmux', ['-V']).status === 0;

describe('gym eval run in a terminal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-progress-tty-'));
  const session = `gym-progress-test-${process.pid}`;
  const pids: number[] = [];
  after(() => {
    spawnSync('tmux', ['kill-session', '-t', session]);
    for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the progress bar and other output on separate lines when a server dies mid-run', { skip: tmux ? false : 'tmux is not installed' }, async () => {
    const headPort = await freePort();
    const status = join(dir, 'exit-status');
    const pidFile = join(dir, 'gym-pid');
    const args = [...EXAMPLE_EVAL_RUN, '--num-repeats', '20000', '--concurrency', '32', '-o', join(dir, 'rollouts.jsonl'), '--log-dir', join(dir, 'logs'), `++head_server.port=${headPort}`];
    const command = `cd '${REPO_ROOT}' && echo $$ > '${pidFile}' && ${[process.execPath, GYM_BIN, ...args].map((a) => `'${a}'`).join(' ')}; echo $? > '${status}'; sleep 600`;
    execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '80', '-y', '40', command]);
    // -J joins the rows a long line wrapped into: text that ran on from the bar shows as one line
    const screen = () => execFileSync('tmux', ['capture-pane', '-p', '-J', '-S', '-200', '-t', session], { encoding: 'utf8' });
    let s = '';
    for (let i = 0; i < 1200 && !/\d+ running/.test((s = screen())); i++) await sleep(50);
    assert.match(s, /\d+ running/, s);
    pids.push(Number(readFileSync(pidFile, 'utf8')));
    const instances = (await (await fetch(`http://127.0.0.1:${headPort}/server_instances`)).json()) as ServerInstance[];
    pids.push(...instances.map((i) => i.pid));
    // the resources server dies: every rollout in flight fails, and gym stops dispatching
    const resources = instances.find((i) => i.process_name === 'example_single_tool_call')!;
    process.kill(resources.pid, 'SIGKILL');
    for (let i = 0; i < 1200 && !existsSync(status); i++) await sleep(50);
    assert.equal(readFileSync(status, 'utf8').trim(), '1');
    s = screen();
    const lines = s.split('\n');
    assert.ok(
      lines.some((l) => l.startsWith("gym: server 'example_single_tool_call' exited (SIGKILL); no new rollouts start")),
      s,
    );
    assert.ok(
      lines.some((l) => l.startsWith('(example_single_tool_call_simple_agent) ')),
      s,
    );
    // the bar is the only thing on its line: nothing was appended to it
    const runOn = lines.filter((l) => /^\[[#.]+\]/.test(l) && /(gym:|\(\w+\) )/.test(l));
    assert.deepEqual(runOn, [], s);
  });
});
