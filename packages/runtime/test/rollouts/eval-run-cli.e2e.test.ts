/**
 * `gym eval run` end to end: the real CLI as a child process, starting the example environment
 * (example_single_tool_call + simple_agent + simulated_model).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { freePort, GYM_BIN as GYM, REPO_ROOT as ROOT } from '../support/gym-process.js';
import { keysOf, readRows } from './test-agent.js';

const ENV_FLAGS = ['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'];
const TASKS = 5; // lines of resources_servers/example_single_tool_call/data/example.jsonl

const children: ChildProcess[] = [];
const dirs: string[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  stderr: () => string;
  /** Resolves when stderr contains `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
  exit: Promise<number | null>;
}

async function gym(args: string[], dir: string): Promise<Run & { headUrl: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [GYM, 'eval', 'run', ...ENV_FLAGS, '--log-dir', join(dir, 'logs'), ...args, `++head_server.port=${port}`], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  const watchers: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout?.resume();
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    err += chunk;
    for (const w of watchers.filter((x) => x.pattern.test(err))) w.resolve();
  });
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    headUrl: `http://127.0.0.1:${port}`,
    stderr: () => err,
    waitFor: (pattern) => (pattern.test(err) ? Promise.resolve() : new Promise((resolve) => watchers.push({ pattern, resolve }))),
    exit,
  };
}

const allKeys = (repeats: number) => Array.from({ length: TASKS * repeats }, (_, i) => `${Math.floor(i / repeats)}:${i % repeats}`).sort();

describe('gym eval run (end to end)', () => {
  it('starts the environment, collects N rows × repeats and writes every file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-eval-'));
    dirs.push(dir);
    const out = join(dir, 'out.jsonl');
    const run = await gym(['--num-repeats', '2', '-o', out], dir);
    assert.equal(await run.exit, 0, run.stderr());
    const rows = readRows(out);
    assert.deepEqual(keysOf(rows), allKeys(2));
    assert.ok(rows.every((r) => r['reward'] === 1 && (r['agent_ref'] as { name: string }).name === 'example_single_tool_call_simple_agent'));
    assert.deepEqual(keysOf(readRows(join(dir, 'out_materialized_inputs.jsonl'))), allKeys(2));
    assert.equal(readFileSync(join(dir, 'out_failures.jsonl'), 'utf8'), '');
    const metrics = JSON.parse(readFileSync(join(dir, 'out_aggregate_metrics.json'), 'utf8')) as { agent_metrics: Record<string, number> }[];
    assert.equal(metrics[0]!.agent_metrics['mean/reward'], 1);
    assert.equal(metrics[0]!.agent_metrics['pass@1/accuracy'], 100);
  });

  it('records failures when the resources server dies mid-run, and --resume completes every pair exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-eval-'));
    dirs.push(dir);
    const out = join(dir, 'out.jsonl');
    const args = ['--num-repeats', '4', '--concurrency', '2', '-o', out, '++policy_model.responses_api_models.simulated_model.latency.fixed_ms=200'];
    const first = await gym(args, dir);
    await first.waitFor(/gym: collecting: /);
    const instances = (await (await fetch(`${first.headUrl}/server_instances`)).json()) as { server_type: string; pid: number }[];
    const resources = instances.find((i) => i.server_type === 'resources_servers');
    assert.ok(resources?.pid, 'the head server lists the resources server with its pid');
    process.kill(resources.pid, 'SIGKILL');
    assert.equal(await first.exit, 1, first.stderr());
    const failures = readRows(join(dir, 'out_failures.jsonl'));
    assert.ok(failures.length >= 1, 'in-flight rollouts become failure rows');
    assert.ok(failures.every((f) => typeof (f['error'] as { code?: unknown }).code === 'string'));
    const done = readRows(out).length;
    assert.ok(done < TASKS * 4);

    const second = await gym([...args, '--resume'], dir);
    assert.equal(await second.exit, 0, second.stderr());
    assert.deepEqual(keysOf(readRows(out)), allKeys(4));
    assert.ok(existsSync(join(dir, 'out_aggregate_metrics.json')));
  });

  it('collects with --no-serve against servers found through the head server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-eval-'));
    dirs.push(dir);
    const port = await freePort();
    const env = spawn(process.execPath, [GYM, 'env', 'start', ...ENV_FLAGS, '--log-dir', join(dir, 'logs'), `++head_server.port=${port}`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(env);
    env.stderr?.resume();
    let out = '';
    env.stdout?.setEncoding('utf8');
    await new Promise<void>((resolve) => env.stdout?.on('data', (chunk: string) => (out += chunk).includes('head server:') && resolve()));
    const envExit = once(env, 'exit');
    const output = join(dir, 'out.jsonl');
    const collect = spawn(process.execPath, [GYM, 'eval', 'run', '--no-serve', '--head-url', `http://127.0.0.1:${port}`, '--limit', '2', '-o', output], { cwd: ROOT, stdio: 'ignore' });
    children.push(collect);
    const [code] = await once(collect, 'exit');
    process.kill(env.pid as number, 'SIGTERM');
    await envExit;
    assert.equal(code, 0);
    assert.deepEqual(keysOf(readRows(output)), ['0:0', '1:0']);
  });

  it('--prompt-config builds the inputs from raw rows, --num-repeats takes the per-agent dict, and gym eval aggregate -i merges the shard', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-eval-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'prompt.yaml'), 'system: "Answer briefly."\nuser: "What is the weather in {city}?"\n');
    writeFileSync(join(dir, 'raw.jsonl'), '{"city":"Paris"}\n{"city":"Oslo"}\n');
    const out = join(dir, 'shard.jsonl');
    const run = await gym(['--prompt-config', join(dir, 'prompt.yaml'), '-i', join(dir, 'raw.jsonl'), '--num-repeats', '{_default: 2}', '--disable-aggregation', '-o', out], dir);
    assert.equal(await run.exit, 0, run.stderr());
    const inputs = readRows(join(dir, 'shard_materialized_inputs.jsonl'));
    assert.deepEqual(keysOf(inputs), ['0:0', '0:1', '1:0', '1:1']);
    assert.deepEqual((inputs.find((r) => r['city'] === 'Oslo')!['responses_create_params'] as Record<string, unknown>)['input'], [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'What is the weather in Oslo?' },
    ]);
    assert.equal(readRows(out).length, 4);
    assert.equal(existsSync(join(dir, 'shard_aggregate_metrics.json')), false);

    const aggregate = spawn(process.execPath, [GYM, 'eval', 'aggregate', '-i', join(dir, 'shard*.jsonl'), '-o', join(dir, 'all.jsonl')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(aggregate);
    let stdout = '';
    aggregate.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    aggregate.stderr?.resume();
    const [code] = await once(aggregate, 'exit');
    assert.equal(code, 0);
    assert.match(stdout, /merged 4 rollouts from 1 file\(s\)/);
    assert.equal(readRows(join(dir, 'all.jsonl')).length, 4);
  });

  it('fails before starting any server when the prompt config is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-eval-'));
    dirs.push(dir);
    const run = await gym(['--prompt-config', join(dir, 'absent.yaml'), '-o', join(dir, 'out.jsonl')], dir);
    assert.equal(await run.exit, 2);
    assert.match(run.stderr(), /Cannot read the prompt config '.*absent\.yaml'/);
    assert.doesNotMatch(run.stderr(), /starting|ready/i);
    assert.equal(existsSync(join(dir, 'out_materialized_inputs.jsonl')), false);
  });
});
