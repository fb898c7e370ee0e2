/**
 * The original's legacy entry points (`ng_run`, `ng_collect_rollouts`, …), run as real processes
 * through the links npm makes for `@gym/runtime`'s bin entries, with the original's Hydra-style
 * arguments.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { freePort, isAlive, REPO_ROOT, waitUntilEnded } from '../support/gym-process.js';

const BIN_DIR = join(REPO_ROOT, 'node_modules/.bin');
const CONFIG_PATHS = '+config_paths=[resources_servers/example_single_tool_call/configs/example_single_tool_call.yaml,responses_api_models/simulated_model/configs/simulated_model.yaml]';
const EXAMPLE_ROWS = 'resources_servers/example_single_tool_call/data/example.jsonl';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `<bin> <args>` to completion (a path, or a name in node_modules/.bin). */
function run(bin: string, args: string[]): Promise<Ran> {
  const child = spawn(bin.includes('/') ? bin : join(BIN_DIR, bin), args, { cwd: REPO_ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('legacy ng_* commands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-legacy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('ng_version and nemo_gym_version print the version, with a notice naming the gym command', async () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/runtime/package.json'), 'utf8')) as { version: string };
    for (const name of ['ng_version', 'nemo_gym_version']) {
      const { code, stdout, stderr } = await run(name, []);
      assert.equal(code, 0, stderr);
      assert.equal(stdout.trim(), pkg.version);
      assert.match(stderr, new RegExp(`\`${name}\` is the original's name; it runs \`gym --version\` here`));
    }
  });

  it('ng_validate takes the original +config_paths list', async () => {
    const { code, stdout, stderr } = await run('ng_validate', [CONFIG_PATHS]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /config is valid: 3 servers from 2 files/);
    assert.match(stderr, /runs `gym env validate` here/);
  });

  it('a legacy name gym does not map is refused with exit code 2', async () => {
    const link = join(dir, 'ng_init_resources_server');
    symlinkSync(join(REPO_ROOT, 'packages/runtime/bin/ng.mjs'), link);
    const { code, stderr } = await run(link, []);
    assert.equal(code, 2);
    assert.match(stderr, /`ng_init_resources_server` has no gym equivalent/);
  });

  it('ng_aggregate_rollouts refuses a setting gym eval aggregate does not have, by name', async () => {
    const { code, stderr } = await run('ng_aggregate_rollouts', ['+input_glob=x.jsonl', '+output_jsonl_fpath=y.jsonl', '+merge_shards=false']);
    assert.equal(code, 2);
    assert.match(stderr, /'merge_shards' is not a setting of gym eval aggregate/);
  });

  describe('ng_run, then ng_status, ng_collect_rollouts and ng_aggregate_rollouts against it', () => {
    let env: ChildProcess;
    let output = '';
    let headPort: number;
    before(async () => {
      headPort = await freePort();
      env = spawn(join(BIN_DIR, 'ng_run'), [CONFIG_PATHS, `++head_server.port=${headPort}`, '--log-dir', join(dir, 'logs')], { cwd: REPO_ROOT });
      env.stdout!.on('data', (d) => (output += d));
      env.stderr!.on('data', (d) => (output += d));
      const exited = new Promise((resolve) => env.on('exit', resolve));
      // ready once every server answered its health check: ng_status below needs them up
      await Promise.race([
        new Promise<void>((resolve) => {
          const check = async () => {
            while (env.exitCode === null) {
              const status = await run('ng_status', [`head_server.port=${headPort}`]).catch(() => undefined);
              if (status?.code === 0) return resolve();
              await new Promise((r) => setTimeout(r, 250));
            }
          };
          env.stdout!.once('data', () => void check());
        }),
        exited.then(() => assert.fail(`ng_run exited:\n${output}`)),
      ]);
    });
    after(async () => {
      const pids = env.pid === undefined ? [] : [env.pid];
      if (env.exitCode === null) env.kill('SIGTERM');
      await waitUntilEnded(pids);
    });

    it('ng_run starts the environment as gym env start', () => {
      assert.match(output, /`ng_run` is the original's name; it runs `gym env start` here/);
      assert.match(output, /head server on http:\/\/127\.0\.0\.1:/);
    });

    it('ng_status lists the servers of the running environment', async () => {
      const { code, stdout } = await run('ng_status', [`head_server.port=${headPort}`]);
      assert.equal(code, 0);
      assert.match(stdout, /3 servers/);
      assert.match(stdout, /example_single_tool_call_simple_agent/);
    });

    it('ng_collect_rollouts collects from the running servers with +input_jsonl_fpath, +output_jsonl_fpath, +limit', async () => {
      const out = join(dir, 'rollouts.jsonl');
      const { code, stderr } = await run('ng_collect_rollouts', [CONFIG_PATHS, `++head_server.port=${headPort}`, `+input_jsonl_fpath=${EXAMPLE_ROWS}`, `+output_jsonl_fpath=${out}`, '+limit=2']);
      assert.equal(code, 0, stderr);
      assert.match(stderr, /runs `gym eval run --no-serve` here/);
      const rows = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.equal(rows.length, 2);
      for (const row of rows) assert.equal(typeof row['reward'], 'number');
      assert.ok(existsSync(join(dir, 'rollouts_aggregate_metrics.json')));
    });

    it('ng_aggregate_rollouts merges shards given as +input_glob / +output_jsonl_fpath', async () => {
      const merged = join(dir, 'merged.jsonl');
      const { code, stderr } = await run('ng_aggregate_rollouts', [CONFIG_PATHS, `+input_glob=${join(dir, 'rollouts.jsonl')}`, `+output_jsonl_fpath=${merged}`]);
      assert.equal(code, 0, stderr);
      assert.equal(readFileSync(merged, 'utf8').trim().split('\n').length, 2);
      const [metrics] = JSON.parse(readFileSync(join(dir, 'merged_aggregate_metrics.json'), 'utf8')) as { agent_metrics: Record<string, unknown> }[];
      assert.equal(typeof metrics!.agent_metrics['mean/reward'], 'number');
    });

    it('stops on SIGTERM like gym env start, leaving no server behind', async () => {
      const servers = (await (await fetch(`http://127.0.0.1:${headPort}/server_instances`)).json()) as { pid: number }[];
      env.kill('SIGTERM');
      await waitUntilEnded([env.pid!, ...servers.map((s) => s.pid)]);
      assert.ok(servers.every((s) => !isAlive(s.pid)));
    });
  });
});
