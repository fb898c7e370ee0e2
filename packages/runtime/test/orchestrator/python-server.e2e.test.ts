// A Python resources server (standard library only) beside our TypeScript agent and model, started
// by the real `gym` CLI: rollouts collected with rewards from the Python verify, one trace per
// rollout reaching the Python server, listed and health-checked like ours, and never outliving a
// killed orchestrator. Real processes on loopback.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecords } from '../support/console-records.js';
import { REPO_ROOT, childPids, consoleTelemetryRun, freePort, isRunning, runGym, startGymEnv, waitUntilEnded } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';
import { runOnTakenPort } from '../support/impostor-server.js';

const FIXTURE_ROOT = join(REPO_ROOT, 'packages/runtime/test/fixtures/python-root');
const SERVER_DIR = join(FIXTURE_ROOT, 'resources_servers/py_capitals');
const ENV = ['--search-dir', FIXTURE_ROOT, '--resources-server', 'py_capitals', '--model-type', 'simulated_model'];
// the fixture imports a sibling module: no bytecode cache written into the repository
const PYTHON_ENV = { PYTHONDONTWRITEBYTECODE: '1' };

interface Row {
  trace_id: string;
  reward: number;
  expected_country: string;
  looked_up: string[];
  received_traceparents: Record<string, string>;
}

/** The start-up line of the fixture: its pid, working directory and first PYTHONPATH entry. */
function startupLine(logDir: string): { pid: number; cwd: string; pythonpath: string } {
  const match = /py_capitals: python \S+ pid (\d+) cwd (\S+) pythonpath (\S+)/.exec(readFileSync(join(logDir, 'py_capitals.log'), 'utf8'));
  assert.ok(match !== null, 'the Python server logged its start-up line');
  return { pid: Number(match[1]), cwd: match[2]!, pythonpath: match[3]! };
}

describe('gym eval run with a Python resources server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-python-run-'));
  const logDir = join(dir, 'logs');
  const output = join(dir, 'rollouts.jsonl');
  let run: { code: number | null; stdout: string; stderr: string };
  before(async () => {
    run = await runGym(['eval', 'run', ...ENV, ...(await consoleTelemetryRun(output, logDir, 'per_rollout'))], { env: telemetryEnv(PYTHON_ENV), cwd: dir });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('collects every row, with the reward the Python verify gave', () => {
    assert.equal(run.code, 0, run.stderr);
    const rows = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
    assert.equal(rows.length, 4);
    const byCountry = Object.fromEntries(rows.map((r) => [r.expected_country, r]));
    // the simulated model looks up the country named in the question; the last row expects another one
    for (const country of ['france', 'japan', 'kenya']) {
      assert.deepEqual(byCountry[country]!.looked_up, [country]);
      assert.equal(byCountry[country]!.reward, 1);
    }
    assert.deepEqual(byCountry['portugal']!.looked_up, ['spain']);
    assert.equal(byCountry['portugal']!.reward, 0);
    assert.match(run.stdout, /py_capitals_simple_agent: 4 rollouts, mean reward 0\.750/);
  });

  it("each rollout is one trace: every call the Python server received carries the rollout's trace id and the agent's CLIENT span", () => {
    const rows = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
    assert.equal(new Set(rows.map((r) => r.trace_id)).size, 4, 'per_rollout: one trace per rollout');
    const agentSpans = readRecords(logDir).byFile['py_capitals_simple_agent.log']!;
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(readFileSync(join(logDir, 'py_capitals.log'), 'utf8'))![1]);
    for (const row of rows) {
      assert.deepEqual(Object.keys(row.received_traceparents).sort(), ['lookup_capital', 'seed_session', 'verify']);
      for (const [route, traceparent] of Object.entries(row.received_traceparents)) {
        const [, traceId, parentId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(traceparent) ?? [];
        assert.equal(traceId, row.trace_id, `${route} of rollout ${row.expected_country} is in its trace`);
        const client = agentSpans.find((s) => s.span_id === parentId);
        assert.ok(client !== undefined, `the agent's span ${parentId} (parent of ${route}) was exported`);
        assert.equal(client.kind, 'CLIENT');
        assert.equal(client.name, 'HTTP POST');
        assert.equal(client.trace_id, row.trace_id);
        assert.equal(client.attributes['server.port'], port);
        assert.equal(client.attributes['url.full'], `http://127.0.0.1:${port}/${route}`);
      }
    }
  });

  it('started the Python server in its directory with its directory on PYTHONPATH, and stopped it with SIGTERM', () => {
    const started = startupLine(logDir);
    assert.equal(started.cwd, SERVER_DIR.replace(/\/$/, ''));
    assert.equal(started.pythonpath, started.cwd);
    const log = readFileSync(join(logDir, 'py_capitals.log'), 'utf8');
    assert.match(log, /py_capitals: SIGTERM received, shutting down\npy_capitals: stopped\n/);
    assert.equal(isRunning(started.pid), false);
    assert.match(run.stdout, /\(py_capitals\) py_capitals listening on http:\/\/127\.0\.0\.1:\d+/, 'its output is on the terminal, prefixed');
    // no .venv in the fixture: python3 from PATH (or uv run, on a machine that has uv)
    assert.match(run.stdout + run.stderr, /starting py_capitals \(resources_servers\/py_capitals\) on 127\.0\.0\.1:\d+ with \S+(\/python3 app\.py|\/uv run --no-project python app\.py)\n/);
  });
});

describe('gym env start with a Python resources server in its own .venv', () => {
  it('lists TypeScript and Python servers on the head server, health-checks both, and a kill -9 of the orchestrator takes the whole Python process group down', async () => {
    // a copy of the fixture whose .venv/bin/python starts the interpreter as its child, as `uv run`
    // does: stopping the first process alone would leave the server running
    const root = mkdtempSync(join(tmpdir(), 'gym-python-venv-'));
    cpSync(FIXTURE_ROOT, root, { recursive: true });
    const serverDir = join(root, 'resources_servers/py_capitals');
    mkdirSync(join(serverDir, '.venv/bin'), { recursive: true });
    writeFileSync(join(serverDir, '.venv/bin/python'), '#!/bin/sh\npython3 "$@"\n', { mode: 0o755 });
    const env = await startGymEnv(['--search-dir', root, ...ENV.slice(2)], { env: { ...process.env, ...PYTHON_ENV } });
    try {
      const byName = Object.fromEntries(env.servers.map((s) => [s.process_name, s as unknown as Record<string, unknown>]));
      assert.deepEqual(Object.keys(byName).sort(), ['policy_model', 'py_capitals', 'py_capitals_simple_agent']);
      assert.equal(byName['py_capitals']!['entrypoint'], join(serverDir, 'app.py'));
      assert.equal(byName['py_capitals']!['server_type'], 'resources_servers');
      assert.equal(byName['py_capitals_simple_agent']!['entrypoint'], join(REPO_ROOT, 'responses_api_agents/simple_agent/app.ts'));

      const status = await runGym(['env', 'status', '--json', '--head-url', env.headUrl]);
      assert.equal(status.code, 0, status.stdout + status.stderr);
      const rows = JSON.parse(status.stdout) as Array<{ process_name: string; healthy: boolean }>;
      assert.deepEqual(rows.map((r) => [r.process_name, r.healthy]).sort(), [
        ['policy_model', true],
        ['py_capitals', true],
        ['py_capitals_simple_agent', true],
      ]);

      assert.ok(
        env.output().includes(`starting py_capitals (resources_servers/py_capitals) on 127.0.0.1:${byName['py_capitals']!['port'] as number} with ${serverDir}/.venv/bin/python app.py\n`),
        env.output(),
      );
      const host = byName['py_capitals']!['pid'] as number;
      const [venvPython] = childPids(host);
      const python = startupLine(env.logDir).pid;
      assert.ok(venvPython !== undefined && childPids(venvPython).includes(python), 'host → .venv/bin/python → the interpreter');
      const [cliPid] = childPids(env.child.pid!);
      assert.ok(cliPid !== undefined, 'the gym wrapper has its CLI child');
      process.kill(cliPid, 'SIGKILL');
      // (its last lines are not in the log: the log tee died with the orchestrator)
      await waitUntilEnded([python, venvPython, host, ...env.servers.map((s) => s.pid)]);
    } finally {
      await env.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a Python server that ignores SIGTERM', () => {
  it('is killed with its process group after the grace period, and the environment stops', async () => {
    const env = await startGymEnv(ENV, { env: { ...process.env, ...PYTHON_ENV, PY_CAPITALS_IGNORE_SIGTERM: '1' } });
    try {
      const python = startupLine(env.logDir).pid;
      assert.equal(await env.stop(), 143, env.output());
      assert.equal(isRunning(python), false);
      assert.match(readFileSync(join(env.logDir, 'py_capitals.log'), 'utf8'), /py_capitals: SIGTERM ignored\n/);
      assert.doesNotMatch(env.output(), /did not stop within/, "the host's own grace ended it, before the orchestrator's");
    } finally {
      await env.dispose();
    }
  });
});

describe('a Python server whose configured port another program holds', () => {
  it('is reported as GYM_SERVER_PORT_IN_USE; the other program is never taken for it', async () => {
    await runOnTakenPort(['eval', 'run', ...ENV], 'py_capitals', { env: { ...process.env, ...PYTHON_ENV } });
  });
});

describe('gym env validate with a Python server', () => {
  it('names the interpreter that would run it, or fails with GYM_PYTHON_NOT_FOUND when there is none', async () => {
    const ok = await runGym(['env', 'validate', ...ENV]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^ok {2}py_capitals +resources_servers\/py_capitals {2}\S+\/py_capitals\/app\.py {2}\(python: (python3 from PATH|uv run)\)$/m);
    const none = await runGym(['env', 'validate', ...ENV], { env: { ...process.env, PATH: join(tmpdir(), 'gym-no-such-bin') } });
    assert.equal(none.code, 2, none.stderr);
    assert.match(none.stderr, /Server 'py_capitals' is a Python server \(app\.py\) but no Python interpreter was found/);
  });
});

describe('a Python server without any interpreter', () => {
  it('stops the start with GYM_PYTHON_NOT_FOUND saying how to prepare the environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-python-none-'));
    try {
      // no .venv in the fixture, and a PATH with neither uv nor python3 (node is started by its path)
      const run = await runGym(['eval', 'run', ...ENV, '-o', join(dir, 'out.jsonl'), '--log-dir', join(dir, 'logs'), `++head_server.port=${await freePort()}`], {
        cwd: dir,
        env: { ...process.env, PATH: join(dir, 'no-bin') },
      });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /Server 'py_capitals' is a Python server \(app\.py\) but no Python interpreter was found/);
      assert.ok(run.stderr.includes(`cd ${SERVER_DIR} && python3 -m venv .venv`), run.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a Python server whose environment lacks a package', () => {
  it('fails the start with GYM_SERVER_EXITED, its traceback, and how to install its requirements', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gym-python-import-'));
    const serverDir = join(root, 'resources_servers/needs_package');
    mkdirSync(join(serverDir, 'configs'), { recursive: true });
    writeFileSync(join(serverDir, 'app.py'), 'import gym_test_no_such_package\n');
    writeFileSync(join(serverDir, 'configs/needs_package.yaml'), 'needs_package:\n  resources_servers:\n    needs_package:\n      entrypoint: app.py\n      domain: other\n');
    try {
      const run = await runGym(['env', 'start', '--search-dir', root, '--resources-server', 'needs_package', '--log-dir', join(root, 'logs'), `++head_server.port=${await freePort()}`], {
        cwd: root,
        env: { ...process.env, ...PYTHON_ENV },
      });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /Server 'needs_package' exited \(1\) before it was ready\. Its Python environment lacks a package it imports: install its requirements into \S+\/needs_package\/\.venv/);
      assert.match(run.stderr, /ModuleNotFoundError: No module named 'gym_test_no_such_package'/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
