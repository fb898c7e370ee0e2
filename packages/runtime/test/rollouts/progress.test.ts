import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress, formatDuration, formatProgress } from '../../src/rollouts/progress.js';

describe('progress', () => {
  it('formats done, failed, in flight, rate and ETA', () => {
    const line = formatProgress({ total: 10, done: 4, failed: 1, inFlight: 2 }, 5000, 10);
    assert.equal(line, '[#####.....] 5/10 done 4 failed 1 in flight 2 | 1.0/s | ETA 5s');
    assert.equal(formatDuration(3_725_000), '1h02m');
    assert.equal(formatDuration(185_000), '3m05s');
  });

  it('prints a plain final line when not on a terminal, and a redrawn one on a terminal', () => {
    const written: string[] = [];
    const plain = createProgress({ sink: { write: (t) => void written.push(t), isTty: false }, total: 1, now: () => 0 });
    plain.started();
    plain.finished(true);
    plain.stop();
    plain.stop();
    assert.deepEqual(written, ['gym: rollouts [########################] 1/1 done 1 failed 0 in flight 0 | 0.0/s | ETA --\n']);
    const tty: string[] = [];
    const bar = createProgress({ sink: { write: (t) => void tty.push(t), isTty: true }, total: 2, now: () => 0 });
    bar.stop();
    assert.match(tty[0]!, /^\r\x1b\[2K\[/);
    assert.equal(tty[1], '\n');
  });
});
