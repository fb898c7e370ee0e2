import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { MAX_LINE_BYTES, teeChildOutput } from '../../src/orchestrator/log-tee.js';

function terminal(): { stream: Writable; text(): string } {
  let text = '';
  return { stream: new Writable({ write: (chunk, _e, done) => ((text += chunk), done()) }), text: () => text };
}

describe('teeChildOutput', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-tee-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes whole lines only, so stdout and stderr never interleave mid-line', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    const term = terminal();
    const logPath = join(dir, 'a.log');
    const tee = teeChildOutput(out, err, { name: 'agent', logPath, terminal: term.stream, terminalErr: term.stream });
    out.write('{"type":"span","name":"HTTP ');
    err.write('warning: something\n');
    out.write('POST"}\n{"level":30,"msg":"listening"}\npartial');
    out.end(' line');
    err.end();
    await tee.close();
    assert.equal(readFileSync(logPath, 'utf8'), 'warning: something\n{"type":"span","name":"HTTP POST"}\n{"level":30,"msg":"listening"}\npartial line\n');
    // the file keeps the JSON; the terminal gets the record's message
    assert.equal(term.text(), '(agent) warning: something\n(agent) listening\n(agent) partial line\n');
    assert.deepEqual(tee.tail(), ['warning: something', '{"type":"span","name":"HTTP POST"}', '{"level":30,"msg":"listening"}', 'partial line']);
  });

  it('shows a run of identical log lines once and counts the rest; the file keeps every line', async () => {
    const out = new PassThrough();
    const term = terminal();
    const logPath = join(dir, 'repeats.log');
    const tee = teeChildOutput(out, new PassThrough().end(), { name: 'agent', logPath, terminal: term.stream, terminalErr: null });
    const failed = '{"level":50,"msg":"rollout failed","err":{"message":"connect ECONNREFUSED 127.0.0.1:9"}}\n';
    out.write(failed.repeat(63));
    out.write('{"level":30,"msg":"shutting down"}\n');
    out.end(failed.repeat(2));
    await tee.close();
    assert.equal(
      term.text(),
      '(agent) error: rollout failed: connect ECONNREFUSED 127.0.0.1:9\n(agent) … and 62 more lines like the one above\n' +
        '(agent) shutting down\n(agent) error: rollout failed: connect ECONNREFUSED 127.0.0.1:9\n(agent) … and 1 more line like the one above\n',
    );
    assert.equal(readFileSync(logPath, 'utf8').split('\n').length - 1, 66);
  });

  it('echoes telemetry records too when asked, and keeps only the last lines as its tail', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    const term = terminal();
    const tee = teeChildOutput(out, err, { name: 'm', logPath: join(dir, 'b.log'), terminal: term.stream, terminalErr: null, echoTelemetry: true });
    for (let i = 0; i < 100; i++) out.write(`{"type":"metric","i":${i}}\n`);
    out.end();
    err.end();
    await tee.close();
    assert.equal(term.text().split('\n').length - 1, 100);
    assert.equal(tee.tail().length, 40);
    assert.equal(tee.tail().at(-1), '{"type":"metric","i":99}');
  });

  it('shows server log records as short lines: level when a warning or worse, the error, no fastify duplicate; raw JSON with rawJson', async () => {
    const lines = [
      '{"level":30,"time":1,"server":"m","msg":"Server listening at http://127.0.0.1:1"}',
      '{"level":30,"time":1,"server":"m","url":"http://127.0.0.1:1","msg":"m listening on http://127.0.0.1:1"}',
      '{"level":50,"time":2,"server":"m","err":{"message":"boom"},"msg":"request failed"}',
      '{"level":40,"msg":"slow"}',
      '{"level":30 not json',
    ];
    for (const rawJson of [false, true]) {
      const out = new PassThrough();
      const err = new PassThrough();
      const term = terminal();
      const logPath = join(dir, `c-${rawJson}.log`);
      const tee = teeChildOutput(out, err, { name: 'm', logPath, terminal: term.stream, terminalErr: null, rawJson });
      out.end(lines.map((l) => `${l}\n`).join(''));
      err.end();
      await tee.close();
      assert.equal(readFileSync(logPath, 'utf8'), lines.map((l) => `${l}\n`).join(''));
      const expected = rawJson ? lines.map((l) => `(m) ${l}\n`).join('') : '(m) m listening on http://127.0.0.1:1\n(m) error: request failed: boom\n(m) warning: slow\n(m) {"level":30 not json\n';
      assert.equal(term.text(), expected);
    }
  });

  it('reads a flood without newline in linear time: the bytes copied stay a small multiple of the bytes read', async () => {
    const out = new PassThrough();
    const term = terminal();
    const logPath = join(dir, 'flood.log');
    const tee = teeChildOutput(out, new PassThrough().end(), { name: 'py', logPath, terminal: term.stream, terminalErr: null });
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const chunks = 256; // 4 MiB, one line
    const concat = Buffer.concat.bind(Buffer);
    const original = Object.getOwnPropertyDescriptor(Buffer, 'concat')!;
    let copied = 0;
    Buffer.concat = (list: readonly Uint8Array[], length?: number) => {
      const joined = concat(list, length);
      copied += joined.length;
      return joined;
    };
    try {
      for (let i = 0; i < chunks; i++) out.write(chunk);
      out.end('!\n');
      await tee.close();
    } finally {
      Object.defineProperty(Buffer, 'concat', original);
    }
    const read = chunk.length * chunks;
    // before: each chunk re-joined the whole unfinished line (about 500 × the bytes read here)
    assert.ok(copied < 3 * read, `${copied} bytes copied for ${read} read`);
    const file = readFileSync(logPath);
    assert.equal(file.length, read + 2, 'the log file has every byte');
    assert.equal(file.subarray(-2).toString(), '!\n');
    // the terminal shows the head of the line and says the file has it whole
    assert.ok(term.text().length < 2 * 1024, `terminal got ${term.text().length} characters`);
    assert.match(term.text(), new RegExp(`^\\(py\\) x+… \\(a line longer than ${MAX_LINE_BYTES / 1024} KiB; the log file has it whole\\)\n$`));
  });

  it('takes \\r as a line end: of several progress redraws in one chunk the terminal shows the last; the file keeps every byte', async () => {
    const out = new PassThrough();
    const term = terminal();
    const logPath = join(dir, 'progress.log');
    const tee = teeChildOutput(out, new PassThrough().end(), { name: 'py', logPath, terminal: term.stream, terminalErr: null });
    const redraws = Array.from({ length: 100 }, (_, i) => `\r${i}%|`).join('');
    out.write(`loading${redraws}`);
    out.write('\r100%|\r\ndone\r\n');
    out.end();
    await tee.close();
    assert.equal(readFileSync(logPath, 'utf8'), `loading${redraws}\r100%|\r\ndone\r\n`);
    assert.equal(term.text(), '(py) 98%|\n(py) 100%|\n(py) done\n');
  });

  it('abandon() stops reading pipes another process still holds, keeping what was read', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    const logPath = join(dir, 'abandon.log');
    const tee = teeChildOutput(out, err, { name: 'py', logPath, terminal: null, terminalErr: null });
    out.write('a line\nhalf a line');
    // neither pipe ends: an escaped descendant holds them open
    await tee.abandon();
    assert.equal(readFileSync(logPath, 'utf8'), 'a line\nhalf a line\n');
    await tee.close();
  });
});
