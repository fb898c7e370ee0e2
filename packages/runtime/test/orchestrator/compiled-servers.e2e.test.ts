// With a current build, `gym` and the servers it starts run compiled JavaScript: no process of the
// environment loads tsx. (The build runs first; after scripts/run-tests.mjs built, it changes nothing.)
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { childPids, REPO_ROOT, startGymEnv } from '../support/gym-process.js';

/** A process's command line, its arguments joined by spaces. */
function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
}

describe('gym env start with a current build', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  before(() => {
    execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-b'], { cwd: REPO_ROOT, stdio: 'inherit' });
  });

  it('runs the CLI and every server from dist/, without tsx', async () => {
    const env = await startGymEnv(['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model']);
    try {
      const [cli] = childPids(env.child.pid!);
      assert.ok(cli !== undefined, 'the gym wrapper has no child');
      assert.match(commandLine(cli), /packages\/runtime\/dist\/cli\/main\.js /);
      assert.doesNotMatch(commandLine(cli), /tsx/);
      assert.equal(env.servers.length, 3);
      for (const server of env.servers) {
        const line = commandLine(server.pid);
        assert.match(line, /packages\/server\/dist\/server-process\/server-main\.js /, server.process_name);
        assert.match(line, new RegExp(`/dist/${server.server_type}/[^/ ]+/app\\.js$`), server.process_name);
        assert.doesNotMatch(line, /tsx/, server.process_name);
      }
    } finally {
      await env.dispose();
    }
  });
});
