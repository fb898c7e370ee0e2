// A Python server forks a child that calls setsid() and ignores SIGTERM, and
// that child keeps the server's stdout open. Stopping gym must not wait on it for good: the child
// is found through /proc, killed and reported with its pid and port. A second stop request leaves
// at once while a stop still waits. Real processes, real signals.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, isRunning, startGymEnv } from '../support/gym-process.js';

const FIXTURE_ROOT = join(REPO_ROOT, 'packages/runtime/test/fixtures/python-root');
const ENV = ['--search-dir', FIXTURE_ROOT, '--resources-server', 'py_capitals', '--model-type', 'simulated_model'];
const PYTHON_ENV = { PYTHONDONTWRITEBYTECODE: '1' };

/** Resolves once `read()` matches `pattern`. */
function until(read: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve) => {
    const check = () => {
      const match = pattern.exec(read());
      if (match === null) setTimeout(check, 50);
      else resolve(match);
    };
    check();
  });
}

describe('a server whose descendant escaped its process group and ignores SIGTERM', () => {
  it('stops anyway: the descendant is killed and reported with its pid and port, and gym exits', async () => {
    const env = await startGymEnv(ENV, { env: { ...process.env, ...PYTHON_ENV, PY_CAPITALS_ESCAPING_CHILD: '1' } });
    let escaped: number | undefined;
    try {
      const log = () => readFileSync(join(env.logDir, 'py_capitals.log'), 'utf8');
      const [, pid, port] = await until(log, /escaping child pid (\d+) port (\d+)/);
      escaped = Number(pid);
      assert.equal(isRunning(escaped), true);
      assert.equal(await env.stop(), 143, env.output());
      assert.match(env.output(), new RegExp(`server 'py_capitals' left processes running after it stopped: pid ${pid} \\(\\S*python\\S* app\\.py, listening on 127\\.0\\.0\\.1:${port}\\) killed`));
      assert.equal(isRunning(escaped), false);
      assert.match(env.output(), /gym: stopped; logs in /);
    } finally {
      if (escaped !== undefined && isRunning(escaped)) process.kill(escaped, 'SIGKILL');
      await env.dispose();
    }
  });
});

describe('a second stop request while servers are still stopping', () => {
  it('leaves at once, saying so', async () => {
    // the server ignores SIGTERM: its host kills it only after its own 5 s grace
    const env = await startGymEnv(ENV, { env: { ...process.env, ...PYTHON_ENV, PY_CAPITALS_IGNORE_SIGTERM: '1' } });
    try {
      env.child.kill('SIGTERM');
      await until(() => readFileSync(join(env.logDir, 'py_capitals.log'), 'utf8'), /SIGTERM ignored/);
      env.child.kill('SIGINT');
      // wait for gym to read the SIGINT before stop() sends its own SIGTERM: two pending signals
      // may be delivered in either order
      await until(env.output, /gym: second SIGINT: leaving without waiting for the servers to stop/);
      // it leaves by itself: a SIGTERM of stop() here could land while gym exits and end it by the signal
      const code = env.child.exitCode ?? env.child.signalCode ?? ((await once(env.child, 'exit')) as [number | null])[0];
      assert.equal(code, 143, env.output());
      assert.doesNotMatch(env.output(), /gym: stopped; logs in/);
    } finally {
      await env.dispose();
    }
  });
});
