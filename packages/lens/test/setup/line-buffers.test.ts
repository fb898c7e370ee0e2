// The console writer's reused batch buffers: a file gets every line whole and in order while
// batches are encoded into buffers that earlier writes still hold, lines of any size and of
// multi-byte text included; a stream that hands chunks on later (a PassThrough) gets text instead.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { JsonLinesWriter } from '../../src/setup/exporters/json-lines-writer.js';
import { LineBuffers, releasesChunksOnCallback } from '../../src/setup/exporters/line-buffers.js';

const dir = mkdtempSync(join(tmpdir(), 'lens-line-buffers-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Batch `b` of `size` records, every record naming its batch and index; some hold multi-byte text. */
function batch(b: number, size: number): Array<{ b: number; i: number; text: string }> {
  return Array.from({ length: size }, (_, i) => ({ b, i, text: i % 7 === 0 ? `héllo wörld ✓ 🚀 ${'x'.repeat(i)}` : 'plain' }));
}

/**
 * Writes `count` batches of `size` records through `writer`, yielding to the event loop after every
 * `yieldEvery` batches (never when 0); returns the lines expected, in order, and the records lost.
 */
async function writeBatches(writer: JsonLinesWriter, count: number, size: number, yieldEvery = 0): Promise<{ expected: string[]; lost: number }> {
  const expected: string[] = [];
  let lost = 0;
  for (let b = 0; b < count; b++) {
    const items = batch(b, size);
    for (const item of items) expected.push(JSON.stringify(item));
    lost += writer.writeItems(items, (item) => JSON.stringify(item));
    if (yieldEvery > 0 && b % yieldEvery === yieldEvery - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  return { expected, lost };
}

describe('LineBuffers', () => {
  it('encodes newline-terminated lines, counts the items whose line threw, and grows for a line larger than its buffer', () => {
    const buffers = new LineBuffers();
    const huge = 'é'.repeat(400_000); // 800,000 bytes: more than the buffer's first 512 KiB
    const items = ['a', 'throws', huge, '🚀'];
    const encoded = buffers.encode(items, (item) => {
      if (item === 'throws') throw new Error('unserialisable');
      return JSON.stringify(item);
    });
    assert.equal(encoded.records, 3);
    assert.equal(encoded.failed, 1);
    assert.equal(encoded.data.toString('utf8'), `"a"\n${JSON.stringify(huge)}\n"🚀"\n`);
    encoded.release();
  });

  it('reuses a released buffer for the next batch, and never one still held', () => {
    const buffers = new LineBuffers();
    const first = buffers.encode(['one'], (s) => s);
    const second = buffers.encode(['two'], (s) => s);
    assert.notEqual(first.data.buffer, second.data.buffer, 'a held buffer was handed out again');
    assert.equal(first.data.toString(), 'one\n');
    first.release();
    const third = buffers.encode(['three'], (s) => s);
    assert.equal(third.data.buffer, first.data.buffer, 'the released buffer was not reused');
    assert.equal(second.data.toString(), 'two\n');
    // a second release of the same batch does not put its buffer back while `third` holds it
    first.release();
    const fourth = buffers.encode(['four'], (s) => s);
    assert.notEqual(fourth.data.buffer, third.data.buffer, 'a buffer released twice was handed out twice');
    assert.equal(third.data.toString(), 'three\n');
  });

  it('is used for files and sockets only: a PassThrough hands its chunks to a reader later', () => {
    const file = createWriteStream(join(dir, 'kind.log'));
    assert.equal(releasesChunksOnCallback(file), true);
    assert.equal(releasesChunksOnCallback(new PassThrough()), false);
    file.destroy();
  });
});

describe('JsonLinesWriter over a file', () => {
  it('writes every line whole and in order while batches queue behind a backed-up stream', async () => {
    const path = join(dir, 'queued.log');
    // a tiny high-water mark: every batch backs the stream up, so later batches wait, holding buffers
    const stream = createWriteStream(path, { highWaterMark: 1024 });
    const writer = new JsonLinesWriter(stream);
    const { expected, lost } = await writeBatches(writer, 40, 300);
    assert.equal(lost, 0);
    await writer.flush();
    stream.end();
    await once(stream, 'finish');
    assert.deepEqual(readFileSync(path, 'utf8').split('\n').slice(0, -1), expected);
    assert.equal(writer.dropped, 0);
  });

  it('counts a line that cannot be made as lost and writes the rest', async () => {
    const path = join(dir, 'lost.log');
    const stream = createWriteStream(path);
    const writer = new JsonLinesWriter(stream);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    assert.equal(
      writer.writeItems([{ ok: 1 }, cyclic, { ok: 2 }], (item) => JSON.stringify(item)),
      1,
    );
    assert.equal(writer.dropped, 1);
    await writer.flush();
    stream.end();
    await once(stream, 'finish');
    assert.equal(readFileSync(path, 'utf8'), '{"ok":1}\n{"ok":2}\n');
  });
});

describe('JsonLinesWriter over a socket', () => {
  it('delivers every line whole and in order to a reader that falls behind', async () => {
    const received: Buffer[] = [];
    let peer: Socket | undefined;
    const server = createServer((socket) => {
      peer = socket;
      // the reader stops for a while: the writer's socket backs up with batches in flight
      socket.pause();
      setTimeout(() => socket.resume(), 200);
      socket.on('data', (chunk: Buffer) => received.push(chunk));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(socket, 'connect');
    try {
      const writer = new JsonLinesWriter(socket);
      const { expected } = await writeBatches(writer, 40, 300, 10);
      await writer.flush();
      socket.end();
      await once(peer!, 'end');
      assert.deepEqual(Buffer.concat(received).toString('utf8').split('\n').slice(0, -1), expected);
      assert.equal(writer.dropped, 0);
    } finally {
      socket.destroy();
      server.close();
    }
  });
});

describe('JsonLinesWriter over a PassThrough', () => {
  it('hands over text that later batches cannot change', async () => {
    const stream = new PassThrough();
    const writer = new JsonLinesWriter(stream);
    const { expected } = await writeBatches(writer, 5, 50);
    stream.end();
    // read only now, after every batch was written
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    assert.deepEqual(Buffer.concat(chunks).toString('utf8').split('\n').slice(0, -1), expected);
  });
});
