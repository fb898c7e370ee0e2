// Servers never outlive their orchestrator, and every stop signal to `gym` stops everything with
// the exit code shells use for it: real signals to real pids of `gym env start`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { childPids, isRunning, startGymEnv, waitUntilEnded } from '../support/gym-process.js';
import type { GymEnv } from '../support/gym-process.js';

const ENV = ['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'];

async function withEnv(test: (env: GymEnv, cliPid: number) => Promise<void>): Promise<void> {
  const env = await startGymEnv(ENV);
  try {
    // the `gym` wrapper runs the CLI (the orchestrator) as its one child
    const [cliPid] = childPids(env.child.pid!);
    assert.ok(cliPid !== undefined, 'the gym wrapper has its CLI child');
    await test(env, cliPid);
  } finally {
    await env.dispose();
  }
}

/** Resolves once every process holding the command's stdout and stderr (the wrapper, the CLI) closed them. */
const outputClosed = (env: GymEnv) => Promise.all([env.child.stdout!, env.child.stderr!].map(async (s) => (s.closed ? undefined : once(s, 'close'))));

const exited = (env: GymEnv) => new Promise<number | null>((resolve) => (env.child.exitCode !== null ? resolve(env.child.exitCode) : env.child.once('exit', (code) => resolve(code))));

describe('stop signals to the gym command', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} (kill -${signal.slice(3)} <pid of gym>) stops every server, flushes and exits ${code} saying so`, () =>
      withEnv(async (env) => {
        env.child.kill(signal);
        assert.equal(await exited(env), code, env.output());
        assert.match(env.output(), new RegExp(`gym: stopped by ${signal} \\(exit ${code}\\)`));
        for (const s of env.servers) assert.equal(isRunning(s.pid), false, `${s.process_name} still running`);
        for (const s of env.servers) assert.match(readFileSync(join(env.logDir, `${s.process_name}.log`), 'utf8'), /"msg":"shutting down"/, `${s.process_name} stopped gracefully`);
      }));
  }
});

describe('a stop signal to the orchestrator itself', () => {
  it('SIGTERM to the CLI process (not the wrapper) stops every server and exits 143 saying so', () =>
    withEnv(async (env, cliPid) => {
      process.kill(cliPid, 'SIGTERM');
      assert.equal(await exited(env), 143, env.output());
      assert.match(env.output(), /gym: stopped by SIGTERM \(exit 143\)/);
      for (const s of env.servers) assert.equal(isRunning(s.pid), false, `${s.process_name} still running`);
    }));
});

describe('an orchestrator that dies without stopping its servers', () => {
  it('kill -9 of the orchestrator: every server notices its liveness channel close and exits', () =>
    withEnv(async (env, cliPid) => {
      const servers = env.servers.map((s) => s.pid);
      assert.ok(servers.every(isRunning));
      process.kill(cliPid, 'SIGKILL');
      await waitUntilEnded(servers);
      assert.equal(await exited(env), 137, 'the wrapper reports the CLI killed by SIGKILL');
      await outputClosed(env);
      assert.match(env.output(), new RegExp(`gym: the gym CLI process \\(pid ${cliPid}\\) was killed by SIGKILL \\(exit 137\\)`));
    }));

  it('kill -9 of the gym wrapper: the CLI stops its servers as on SIGHUP and says what happened, not SIGHUP', () =>
    withEnv(async (env, cliPid) => {
      const servers = env.servers.map((s) => s.pid);
      const wrapper = env.child.pid!;
      env.child.kill('SIGKILL');
      await waitUntilEnded([cliPid, ...servers]);
      await outputClosed(env);
      assert.match(
        env.output(),
        new RegExp(`gym: stopped because the gym process that started this command \\(pid ${wrapper}\\) is gone \\(killed by a signal it cannot forward, such as SIGKILL\\) \\(exit 129\\)`),
      );
      assert.doesNotMatch(env.output(), /SIGHUP/);
      for (const s of env.servers) assert.match(readFileSync(join(env.logDir, `${s.process_name}.log`), 'utf8'), /"msg":"shutting down"/, `${s.process_name} stopped gracefully`);
    }));
});
