// A busy head port is a usage error naming the port and a free one to pick, and leaves no log dir.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGym } from '../support/gym-process.js';

describe('gym env start on a busy head port', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'gym-busy-'));
  const listener = createServer();
  after(async () => {
    await new Promise((resolve) => listener.close(resolve));
    rmSync(cwd, { recursive: true, force: true });
  });

  it('exits 2 with the port, a free port to paste, and no .gym/logs', async () => {
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as { port: number };
    for (const command of [
      ['env', 'start'],
      ['eval', 'run'],
    ]) {
      const { code, stdout, stderr } = await runGym([...command, '--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model', `head_server.port=${port}`], { cwd });
      assert.equal(code, 2, stderr);
      assert.equal(stdout, '');
      assert.match(stderr, new RegExp(`^gym: Port ${port} on 127\\.0\\.0\\.1 is in use`));
      const suggested = /add head_server\.port=(\d+) to the command/.exec(stderr);
      assert.ok(suggested !== null, stderr);
      assert.notEqual(Number(suggested[1]), port);
      assert.doesNotMatch(stderr, /internal error|This is a bug/);
      assert.equal(existsSync(join(cwd, '.gym')), false, 'no log directory for a start that failed');
    }
  });
});
