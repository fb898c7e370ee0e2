// A marker API key planted in env.yaml, and an upstream (a fake OpenAI server) that echoes it in
// its errors: the key must appear in no output of the run — log files with spans, metrics and log
// records, results, failures sidecar, head server routes, config files, `ps` — and only the model
// server, the one that uses it, may receive it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeVllm } from '../../../../responses_api_models/vllm_model/test/fake-vllm.js';
import type { FakeVllm } from '../../../../responses_api_models/vllm_model/test/fake-vllm.js';
import { readRecords } from '../support/console-records.js';
import { REPO_ROOT, runGym, startGymEnv } from '../support/gym-process.js';
import type { GymEnv } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const MARKER = 'sk-planted-7f3c1e9a-secret-marker';
const AGENT = 'example_single_tool_call_simple_agent';
const ROW = readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

describe('a planted secret', () => {
  let upstream: FakeVllm;
  let env: GymEnv;
  let work: string;
  before(async () => {
    upstream = await startFakeVllm({ model: 'gpt-test' });
    // a provider echoing the key, as OpenAI's "Incorrect API key provided: sk-…" does
    const echo = {
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${MARKER}. Check https://example.invalid?key=${encodeURIComponent(MARKER)}`, type: 'invalid_request_error', code: 'invalid_api_key' } },
    };
    upstream.fail('/v1/responses', ...Array.from({ length: 50 }, () => echo));
    work = mkdtempSync(join(tmpdir(), 'gym-secret-'));
    // the filler makes the resolved config larger than an environment variable may carry, so the
    // config-file path is taken too
    writeFileSync(join(work, 'env.yaml'), `policy_base_url: ${upstream.baseUrl}\npolicy_api_key: ${MARKER}\npolicy_model_name: gpt-test\nfiller_notes: "${'x'.repeat(70 * 1024)}"\n`);
    env = await startGymEnv(
      [
        '--resources-server',
        'example_single_tool_call',
        '--model-type',
        'openai_model',
        '++telemetry.enabled=true',
        '++telemetry.exporter=console',
        '++telemetry.span_groups=all',
        '++telemetry.logs_enabled=true',
      ],
      { cwd: work, env: telemetryEnv({}) },
    );
  });
  after(async () => {
    await env?.dispose();
    await upstream?.close();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('reaches only the model server, and no process shows it in ps', async () => {
    const pidOf = (name: string) => env.servers.find((s) => s.process_name === name)!.pid;
    for (const pid of [env.child.pid!, ...env.servers.map((s) => s.pid)]) {
      assert.doesNotMatch(execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }), new RegExp(MARKER));
    }
    // /proc/<pid>/environ: what each server was given
    const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8');
    assert.match(environ(pidOf('policy_model')), new RegExp(MARKER));
    for (const name of [AGENT, 'example_single_tool_call']) assert.doesNotMatch(environ(pidOf(name)), new RegExp(MARKER), name);
  });

  it('stays out of error bodies and head server routes while the upstream echoes it', async () => {
    const run = await fetch(`${env.url(AGENT)}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ROW });
    assert.equal(run.status, 500);
    const body = await run.text();
    assert.match(body, /Incorrect API key provided/);
    assert.doesNotMatch(body, new RegExp(MARKER));
    const direct = await fetch(`${env.url('policy_model')}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: 'hi' }) });
    assert.equal(direct.status, 500);
    assert.doesNotMatch(await direct.text(), new RegExp(MARKER));
    for (const route of ['/global_config_dict_yaml', '/server_instances']) {
      assert.doesNotMatch(await (await fetch(`${env.headUrl}${route}`)).text(), new RegExp(MARKER), route);
    }
    // the upstream really got the key and really echoed it back
    assert.ok(upstream.requests.some((r) => r.headers.authorization === `Bearer ${MARKER}`));
  });

  it('stays out of results, the failures sidecar and every file of the run', async () => {
    const input = join(work, 'input.jsonl');
    writeFileSync(input, `${ROW}\n${ROW}\n`);
    const output = join(work, 'results', 'run.jsonl');
    const collected = await runGym(['eval', 'run', '--no-serve', '--head-url', env.headUrl, '--input', input, '--output', output], { cwd: work, env: telemetryEnv({}) });
    assert.doesNotMatch(collected.stdout + collected.stderr, new RegExp(MARKER));
    const failures = readFileSync(output.replace('.jsonl', '_failures.jsonl'), 'utf8');
    assert.equal(failures.trim().split('\n').length, 2);
    assert.match(failures, /Incorrect API key provided/);
    assert.equal(await env.stop(), 143);
    assert.doesNotMatch(env.output(), new RegExp(MARKER));

    // the servers' logs, the results, and the collector's own run directory (.gym/logs/<time>/)
    const files = [...filesUnder(env.logDir), ...filesUnder(join(work, 'results')), ...filesUnder(join(work, '.gym'))];
    assert.ok(files.some((f) => f.endsWith('collector.log')));
    const configFiles = files.filter((f) => f.endsWith('.config.yaml'));
    assert.equal(configFiles.length, 3, 'the >64 KiB config went to files');
    for (const file of configFiles) assert.match(readFileSync(file, 'utf8'), /policy_api_key: "?\[REDACTED\]/);
    const leaking = files.filter((f) => readFileSync(f, 'utf8').includes(MARKER) || readFileSync(f, 'utf8').includes(encodeURIComponent(MARKER)));
    assert.deepEqual(leaking, []);

    // the spans saw the failure (so they had the chance to leak it)
    const { spans, logs } = readRecords(env.logDir);
    const failed = spans.filter((s) => s.name === 'gym.model.responses' && s.status.code === 'ERROR');
    assert.ok(failed.length > 0);
    assert.match(failed[0]!.status.message ?? '', /Incorrect API key provided: \[REDACTED\]/);
    assert.ok(logs.length > 0, 'log records were exported');
  });

  it('creates run directories 0700 and log files 0600', () => {
    const runDirs = readdirSync(join(work, '.gym', 'logs'))
      .map((d) => join(work, '.gym', 'logs', d))
      .filter((d) => statSync(d).isDirectory());
    assert.ok(runDirs.length > 0);
    for (const dir of [join(work, '.gym', 'logs'), ...runDirs]) assert.equal(statSync(dir).mode & 0o777, 0o700, dir);
    for (const file of [...filesUnder(env.logDir), ...filesUnder(join(work, '.gym'))]) assert.equal(statSync(file).mode & 0o077, 0, file);
  });
});
