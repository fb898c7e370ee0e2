import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { teeChildOutput } from '../../src/orchestrator/log-tee.js';

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
});
