// A disk that fills never leaves a cut-off line in front of the next record,
// loses are counted and named as a full disk, and the health verdict blames the disk, not the
// trajectory. The failure is real: /dev/full (every write is ENOSPC) everywhere on Linux, and a
// 64 KiB tmpfs where this test may mount one (root), for a write that fails part-way.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaptureStore } from '../../../server/src/evidence/capture-store.js';
import { captureAttachment } from '../../src/evidence/capture-records.js';
import { checkRollout } from '../../src/evidence/health-checks.js';
import { openJsonlAppender, readJsonlFile, writeTextFile } from '../../src/rollouts/rollout-files.js';
import { describeWriteLosses } from '../../src/rollouts/write-losses.js';

const linux = existsSync('/dev/full');

/** Mounts a 64 KiB tmpfs at a fresh directory, or returns undefined where that is not allowed. */
function smallDisk(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'gym-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

/** Fills `dir` with a file until the disk is full; returns its path (delete it to free the space). */
function fill(dir: string): string {
  const filler = join(dir, 'filler');
  try {
    writeFileSync(filler, Buffer.alloc(1024 * 1024));
  } catch {
    // ENOSPC: the disk is now full, the filler holds what fitted
  }
  return filler;
}

const record = (i: number) => ({ _ng_task_index: i, _ng_rollout_index: 0, response: 'x'.repeat(700) });

describe('appending to a full disk (/dev/full)', { skip: !linux && 'needs /dev/full' }, () => {
  it('returns false, counts the loss and names the full disk', () => {
    const appender = openJsonlAppender('/dev/full');
    try {
      assert.equal(appender.append(record(0)), false);
      assert.equal(appender.append(record(1)), false);
      const losses = appender.losses();
      assert.equal(losses.records, 2);
      assert.equal(losses.last?.code, 'ENOSPC');
      assert.deepEqual(describeWriteLosses({ output: losses, failures: { records: 0 } }, { output: 'out.jsonl', failures: 'out_failures.jsonl' }), [
        'results: 2 rows not written to out.jsonl: no space left on device (ENOSPC): the disk is full; those rollouts are not counted complete; run again with --resume once there is space',
      ]);
    } finally {
      appender.close();
    }
  });
});

describe('a file that ends mid-line (a writer killed mid-write)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-cut-line-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gets the next record on a fresh line: --resume reads every whole row and reports the cut-off one', () => {
    const path = join(dir, 'out.jsonl');
    writeFileSync(path, `${JSON.stringify(record(0))}\n${JSON.stringify(record(1)).slice(0, 40)}`);
    const appender = openJsonlAppender(path);
    assert.equal(appender.append(record(2)), true);
    appender.close();
    const parsed = readJsonlFile(path);
    assert.deepEqual(
      parsed.lines.map((l) => l.value['_ng_task_index']),
      [0, 2],
    );
    assert.deepEqual(
      parsed.malformed.map((m) => m.lineNumber),
      [2],
    );
  });

  it('a capture file too: the next exchange is not glued to the cut-off one', async () => {
    const store = new CaptureStore(join(dir, 'captures'));
    await store.append('r1', { n: 1 });
    writeFileSync(store.pathFor('r1'), `${readFileSync(store.pathFor('r1'), 'utf8')}{"n":2,"cut`);
    await store.append('r1', { n: 3 });
    const read = store.read('r1');
    assert.deepEqual(
      read.exchanges.map((e) => e.exchange['n']),
      [1, 3],
    );
    assert.equal(read.unreadable, 1);
  });
});

describe('a disk that fills part-way through a record (64 KiB tmpfs)', () => {
  const disk = linux ? smallDisk() : undefined;
  after(() => {
    if (disk === undefined) return;
    // lazy: a descriptor a failed test left open must not keep the mount
    execFileSync('umount', ['-l', disk]);
    rmSync(disk, { recursive: true, force: true });
  });

  it(
    'cuts the results file back to its last complete line; once space is back, every line parses and the losses are counted',
    { skip: disk === undefined && 'cannot mount a tmpfs here (needs root)' },
    () => {
      const path = join(disk!, 'out.jsonl');
      const appender = openJsonlAppender(path, { replace: true });
      const filler = fill(disk!);
      // a few KiB free at most: the first records fit, then one is cut short by ENOSPC
      rmSync(filler);
      writeFileSync(filler, Buffer.alloc(64 * 1024 - 3 * 4096));
      let written = 0;
      let failedAt: number | undefined;
      for (let i = 0; i < 40 && failedAt === undefined; i++) {
        if (appender.append(record(i))) written++;
        else failedAt = i;
      }
      assert.ok(failedAt !== undefined, 'the disk filled');
      assert.equal(readJsonlFile(path).malformed.length, 0, 'no cut-off line');
      assert.ok(readFileSync(path, 'utf8').endsWith('}\n'));
      rmSync(filler);
      assert.equal(appender.append(record(100)), true);
      appender.close();
      const parsed = readJsonlFile(path);
      assert.deepEqual(parsed.malformed, [], readFileSync(path, 'utf8').slice(-200));
      assert.equal(parsed.lines.length, written + 1, 'rows that parse = rows reported written');
      assert.equal(appender.losses().records, 1);
      assert.equal(appender.losses().last?.code, 'ENOSPC');
    },
  );

  it('refuses -o on a full disk with GYM_ROLLOUT_OUTPUT_WRITE naming the full disk, not an internal error', { skip: disk === undefined && 'cannot mount a tmpfs here (needs root)' }, () => {
    const filler = fill(disk!);
    try {
      assert.throws(() => writeTextFile(join(disk!, 'run_materialized_inputs.jsonl'), `${JSON.stringify(record(0))}\n`.repeat(200)), {
        code: 'GYM_ROLLOUT_OUTPUT_WRITE',
        message: /^Cannot write \S+run_materialized_inputs\.jsonl: no space left on device \(ENOSPC\): the disk is full\./,
      });
    } finally {
      rmSync(filler);
    }
  });

  it(
    'marks a capture that could not be written, and the health verdict names the full disk instead of an unmatched reference',
    { skip: disk === undefined && 'cannot mount a tmpfs here (needs root)' },
    async () => {
      const store = new CaptureStore(join(disk!, 'captures'));
      mkdirSync(store.root, { recursive: true });
      const filler = fill(disk!);
      try {
        await assert.rejects(store.append('r9', { request: 'x'.repeat(8000) }), { code: 'ENOSPC' });
        const read = store.read('r9');
        assert.equal(read.lost, 'ENOSPC');
        const attachment = captureAttachment('r9', read);
        const gaps = [...(attachment.gaps ?? []), { code: 'model_call_reference_unmatched', invocation_id: 'i1', detail: 'call c1' }];
        const verdict = checkRollout({ _ng_task_index: 0, ng_trajectory: { model_calls: [], gaps, invocations: [], turns: [] } }, { ignore: new Set(), duplicate: false });
        assert.equal(verdict.verdict, 'unobserved');
        assert.deepEqual(verdict.findings, []);
        assert.match(verdict.unobserved_cause ?? '', /no space left on device \(ENOSPC\): the capture disk is full/);
      } finally {
        rmSync(filler);
      }
    },
  );
});
