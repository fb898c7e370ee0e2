// Ctrl-C (a real SIGINT to the terminal's process group) during the model readiness wait stops
// the servers started so far and exits 130, instead of waiting out the 600 s.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, GYM_BIN, isAlive, REPO_ROOT } from '../support/gym-process.js';
import type { ServerInstance } from '../support/gym-process.js';

describe('Ctrl-C during the model readiness wait', () => {
  const logDir = mkdtempSync(join(tmpdir(), 'gym-wait-'));
  const pids: number[] = [];
  after(() => {
    for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(logDir, { recursive: true, force: true });
  });

  it('stops the servers and exits 130', async () => {
    const headPort = await freePort();
    const modelUrl = `http://127.0.0.1:${await freePort()}/v1`;
    const args = ['env', 'start', '--resources-server', 'example_single_tool_call', '--model-type', 'vllm_model', '--model-url', modelUrl, '-m', 'm', '--model-api-key', 'k'];
    // detached: its own process group, as a shell gives a foreground job; the SIGINT goes to the group as a terminal's Ctrl-C does
    const child = spawn(process.execPath, [GYM_BIN, ...args, `head_server.port=${headPort}`, '--log-dir', logDir], { cwd: REPO_ROOT, detached: true });
    pids.push(child.pid!);
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        if (stderr.includes('waiting for model endpoint')) resolve();
      });
      void exited.then(() => reject(new Error(`gym exited early:\n${stderr}`)));
    });
    assert.match(stderr, new RegExp(`waiting for model endpoint ${modelUrl}: \\d+ s left \\(Ctrl-C stops`));
    const instances = (await (await fetch(`http://127.0.0.1:${headPort}/server_instances`)).json()) as ServerInstance[];
    assert.equal(instances.length, 3);
    pids.push(...instances.map((i) => i.pid));
    process.kill(-child.pid!, 'SIGINT');
    assert.equal(await exited, 130, stderr);
    assert.match(stderr, /gym: interrupted; stopping the servers started so far/);
    assert.doesNotMatch(stderr, /internal error|This is a bug/);
    for (const i of instances) assert.equal(isAlive(i.pid), false, `${i.process_name} stopped`);
  });
});
