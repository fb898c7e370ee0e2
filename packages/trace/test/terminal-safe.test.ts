import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { terminalSafe, terminalSafeKeepingCr } from '../src/commands/output.js';

describe('terminalSafe', () => {
  it('shows control characters escaped and leaves text, tabs and newlines alone', () => {
    assert.equal(terminalSafe('a\x1b[2Jb\x07\x7f\x9b'), 'a\\x1b[2Jb\\x07\\x7f\\x9b');
    assert.equal(terminalSafe('file \u202egnp.exe'), 'file \\u202egnp.exe');
    assert.equal(terminalSafe('a\r\n'), 'a\\x0d\n');
    const plain = 'POST /v1/responses\t4.21s — ünïcode 模型\n';
    assert.equal(terminalSafe(plain), plain);
  });

  it('lets \\r through for progress lines on stderr', () => {
    assert.equal(terminalSafeKeepingCr('\rreading 5 MiB\x1b[K'), '\rreading 5 MiB\\x1b[K');
  });
});
