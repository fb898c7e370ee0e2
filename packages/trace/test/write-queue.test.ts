// The index build's writes run on libuv's threads: each lands at its own offset whatever order
// they finish in, the bytes in flight stay bounded while the build waits on `ready()`, and a
// failed write surfaces instead of leaving a short file.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { MAX_BYTES_IN_FLIGHT, WriteQueue } from '../src/partition/write-queue.js';
import { tempDir } from './support/fixtures.js';

const d = tempDir();
after(() => d.cleanup());

describe('WriteQueue', () => {
  it('writes every buffer at its offset and keeps the bytes in flight bounded', async () => {
    const size = 64 * 1024;
    const queue = new WriteQueue(size);
    const fds = [openSync(d.path('a'), 'w'), openSync(d.path('b'), 'w')];
    const expected = ['', ''];
    const offsets = [0, 0];
    let most = 0;
    // three times the bound, over two files, waiting as the build does between reads
    for (let n = 0; n * size < 3 * MAX_BYTES_IN_FLIGHT; n++) {
      const f = n % 2;
      const buf = queue.buffer();
      const text = `${n}:`.padEnd(size - 1, String.fromCharCode(97 + (n % 26))) + '\n';
      buf.write(text, 'latin1');
      queue.write(fds[f]!, buf, size, offsets[f]!);
      offsets[f]! += size;
      expected[f] += text;
      most = Math.max(most, queue.bytesInFlight);
      await queue.ready();
      assert.ok(queue.bytesInFlight <= MAX_BYTES_IN_FLIGHT, `${queue.bytesInFlight} bytes in flight after ready()`);
    }
    await queue.settled();
    assert.equal(queue.bytesInFlight, 0);
    assert.equal(queue.error, null);
    fds.forEach((fd) => closeSync(fd));
    assert.equal(readFileSync(d.path('a'), 'latin1'), expected[0]);
    assert.equal(readFileSync(d.path('b'), 'latin1'), expected[1]);
    assert.ok(most > MAX_BYTES_IN_FLIGHT, 'the bound was reached: ready() held the writer back');
  });

  it('reports a failed write from ready() and error, and still settles', async () => {
    const queue = new WriteQueue(16);
    const fd = openSync(d.path('a'), 'r'); // not open for writing: EBADF
    queue.write(fd, Buffer.from('0123456789abcdef'), 16, 0);
    await queue.settled();
    closeSync(fd);
    assert.equal(queue.error?.code, 'EBADF');
    await assert.rejects(queue.ready() ?? Promise.resolve(), { code: 'EBADF' });
  });
});
