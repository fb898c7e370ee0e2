import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';

const SCRIPT = fileURLToPath(new URL('./fixtures/shutdown-server.ts', import.meta.url));

describe('graceful shutdown', () => {
  let child: ChildProcess | undefined;
  after(() => {
    if (child?.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  });

  it('closes the server on SIGTERM, runs onShutdown and exits by itself with code 0', async () => {
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.setEncoding('utf8');
    const listening = new Promise<number>((resolve) => {
      child?.stdout?.on('data', (chunk: string) => {
        out += chunk;
        const match = /listening (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
    });
    const port = await listening;
    const health = await fetch(`http://127.0.0.1:${port}/`);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const exited = once(child, 'exit');
    process.kill(child.pid as number, 'SIGTERM');
    const [code, signal] = (await exited) as [number | null, string | null];
    assert.equal(signal, null);
    assert.equal(code, 0);
    assert.match(out, /shutdown complete/);
  });
});
