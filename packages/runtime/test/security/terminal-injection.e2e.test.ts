// Names, messages and values that come from telemetry files reach the terminal with their control
// characters shown escaped: a span or service named with an escape sequence cannot clear the
// screen, retitle the window or hide a line, in any `gym trace` command that prints it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGym } from '../support/gym-process.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const EVIL_NAME = 'tool\x1b]0;pwned\x07\x1b[2J\x1b[1A';
const EVIL_SERVICE = 'nemo-gym/ev\x1b[31mil';
const EVIL_MESSAGE = 'failed \u202egnp.exe\x9b';

function spanLine(spanId: string, parent: string | null, name: string, startMs: number, endMs: number, extra: Record<string, unknown> = {}): string {
  const ns = (ms: number) => `${BigInt(1_800_000_000_000 + ms) * 1_000_000n}`;
  return JSON.stringify({
    type: 'span',
    trace_id: TRACE,
    span_id: spanId,
    parent_span_id: parent,
    name,
    kind: parent === null ? 'SERVER' : 'INTERNAL',
    start_time_unix_nano: ns(startMs),
    end_time_unix_nano: ns(endMs),
    duration_ms: endMs - startMs,
    status: { code: 'UNSET', message: null },
    attributes: { 'nemo.gym.rollout.id': 'r-000000000001', _ng_task_index: 0, _ng_rollout_index: 0 },
    events: [],
    links: [],
    resource: { attributes: { 'service.name': EVIL_SERVICE } },
    scope: { name: 'gym', version: null },
    ...extra,
  });
}

describe('gym trace on a file with control characters in its names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-injection-'));
  const outputs: Record<string, { code: number | null; stdout: string; stderr: string }> = {};

  before(async () => {
    writeFileSync(
      join(dir, 'evil.log'),
      [
        spanLine('00f067aa0ba902b7', null, 'POST /run', 0, 100),
        spanLine('00f067aa0ba902b8', '00f067aa0ba902b7', 'gym.rollout', 1, 99),
        spanLine('00f067aa0ba902b9', '00f067aa0ba902b8', EVIL_NAME, 10, 60, { status: { code: 'ERROR', message: EVIL_MESSAGE } }),
      ].join('\n') + '\n',
    );
    for (const args of [['show', '--slowest', '1'], ['stats'], ['anomalies'], ['why', '--all'], ['sql', 'SELECT name, service FROM spans']]) {
      outputs[args[0]!] = await runGym(['trace', ...args, dir]);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const command of ['show', 'stats', 'anomalies', 'why', 'sql']) {
    it(`${command} prints no raw control character`, () => {
      const { code, stdout, stderr } = outputs[command]!;
      assert.ok(code === 0 || code === 1, `exit ${code}: ${stderr}`);
      const raw = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/.exec(stdout + stderr.replace(/\r/g, ''));
      assert.equal(raw, null, `raw ${JSON.stringify(raw?.[0])} in:\n${stdout}${stderr}`);
    });
  }

  it('shows the escapes as text, so the odd name is still visible', () => {
    assert.match(outputs['show']!.stdout, /tool\\x1b\]0;pwned\\x07/);
    assert.match(outputs['sql']!.stdout, /ev\\x1b\[31mil/);
  });
});
