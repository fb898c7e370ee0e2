import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress, formatDuration, formatProgress } from '../../src/rollouts/progress.js';

describe('progress', () => {
  it('formats finished of total, succeeded, failed, running, rate and ETA', () => {
    const line = formatProgress({ total: 10, done: 4, failed: 1, abandoned: 0, inFlight: 2 }, 5000, 10);
    assert.equal(line, '[#####.....] 5/10  4 ok  1 failed  2 running  1.0/s  ETA 5s');
    assert.equal(formatProgress({ total: 20, done: 20, failed: 0, abandoned: 0, inFlight: 0 }, 4000, { barWidth: 10, final: true }), '[##########] 20/20  20 ok  0 failed  5.0/s  in 4s');
  });

  it('draws an empty bar when there is nothing to run', () => {
    assert.equal(formatProgress({ total: 0, done: 0, failed: 0, abandoned: 0, inFlight: 0 }, 1000, 10), '[..........] 0/0  0 ok  0 failed  0 running  0.0/s  ETA 0s');
  });

  it('fits the terminal: the bar gives way', () => {
    const state = { total: 100_000, done: 51_234, failed: 17, abandoned: 0, inFlight: 64 };
    const wide = formatProgress(state, 60_000, { columns: 200 });
    const narrow = formatProgress(state, 60_000, { columns: 80 });
    assert.match(wide, /^\[#{12}\.{12}\] /);
    assert.ok(narrow.length <= 80, `${narrow.length}: ${narrow}`);
    assert.equal(narrow.slice(narrow.indexOf(']')), wide.slice(wide.indexOf(']')));
  });

  it('colours the bar green, red once a rollout failed, and the failed count red', () => {
    assert.match(formatProgress({ total: 2, done: 1, failed: 0, abandoned: 0, inFlight: 1 }, 1000, { color: true, barWidth: 4 }), /^\[\x1b\[32m##\x1b\[39m\.\.\]/);
    const failed = formatProgress({ total: 2, done: 0, failed: 1, abandoned: 0, inFlight: 1 }, 1000, { color: true, barWidth: 4 });
    assert.match(failed, /^\[\x1b\[31m##\x1b\[39m\.\.\]/);
    assert.match(failed, /\x1b\[31m1 failed\x1b\[39m/);
  });

  it('counts abandoned rollouts apart from failed ones, as the summary does', () => {
    const written: string[] = [];
    const progress = createProgress({ sink: { write: (t) => void written.push(t), isTty: false }, total: 3, now: () => 0 });
    for (const outcome of ['ok', 'abandoned', 'abandoned'] as const) {
      progress.started();
      progress.finished(outcome);
    }
    progress.stop();
    assert.deepEqual(written, ['gym: rollouts [########################] 3/3  1 ok  0 failed  2 abandoned  0.0/s  in 0s\n']);
  });

  it('formats durations', () => {
    assert.equal(formatDuration(3_725_000), '1h02m');
    assert.equal(formatDuration(185_000), '3m05s');
  });

  it('prints a plain final line when not on a terminal, and a redrawn one on a terminal', () => {
    const written: string[] = [];
    const plain = createProgress({ sink: { write: (t) => void written.push(t), isTty: false }, total: 1, now: () => 0 });
    plain.started();
    plain.finished('ok');
    plain.stop();
    plain.stop();
    assert.deepEqual(written, ['gym: rollouts [########################] 1/1  1 ok  0 failed  0.0/s  in 0s\n']);
    const tty: string[] = [];
    const bar = createProgress({ sink: { write: (t) => void tty.push(t), isTty: true }, total: 2, now: () => 0 });
    bar.stop();
    assert.match(tty[0]!, /^\r\x1b\[2K\[/);
    assert.equal(tty[1], '\n');
  });
});
