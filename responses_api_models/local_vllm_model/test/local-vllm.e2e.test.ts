// local_vllm_model as a user runs it, with a fake `vllm` executable that serves the OpenAI API on
// the port it is given: `gym eval run` starts it with the config's command line, waits until it
// serves the model, routes the rollouts' model calls to it, and stops it when the run ends.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive, runGym } from '../../../packages/runtime/test/support/gym-process.js';
import { assertOriginalConfigValidates } from '../../../resources_servers/test-support/original-config.js';

const FAKE_VLLM = fileURLToPath(new URL('./fake-vllm.mjs', import.meta.url));
const BLOCK = 'policy_model.responses_api_models.local_vllm_model';

describe('local_vllm_model with a fake vllm executable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-local-vllm-'));
  const recordFile = join(dir, 'vllm-record.jsonl');
  let run: { code: number | null; stdout: string; stderr: string };
  let events: Array<Record<string, unknown>> = [];
  let rows: Array<Record<string, unknown>> = [];

  before(async () => {
    const output = join(dir, 'rollouts.jsonl');
    run = await runGym([
      ...['eval', 'run', '--resources-server', 'example_single_tool_call', '--model-type', 'local_vllm_model', '--limit', '2', '-o', output, '--log-dir', join(dir, 'logs')],
      '++policy_model_name=org/fake-checkpoint',
      `++${BLOCK}.subprocess.executable=${FAKE_VLLM}`,
      `++${BLOCK}.subprocess.log_dir=${join(dir, 'vllm-logs')}`,
      `++${BLOCK}.subprocess.poll_interval_seconds=0.05`,
      `++${BLOCK}.vllm_serve_env_vars={FAKE_VLLM_RECORD: '${recordFile}'}`,
      `++${BLOCK}.vllm_serve_kwargs.max_model_len=4096`,
    ]);
    // a run that ended before the fake vllm started says why in its own output
    assert.ok(existsSync(recordFile), `gym eval run exited ${run.code} and the fake vllm never started:\n${run.stdout}\n${run.stderr}`);
    events = readFileSync(recordFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    rows = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("starts vllm serve with the config's command line and waits until it serves the model", () => {
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const start = events.find((e) => e['event'] === 'start')!;
    const args = start['args'] as string[];
    assert.deepEqual(args.slice(0, 2), ['serve', 'org/fake-checkpoint']);
    assert.ok(args.includes('--max-model-len=4096'), args.join(' '));
    assert.ok(args.includes('--host=127.0.0.1'), args.join(' '));
    assert.deepEqual(args.slice(-2), ['--served-model-name', 'org/fake-checkpoint']);
    assert.equal(start['apiKey'], true);
    assert.match(run.stdout, /starting vLLM: .*fake-vllm\.mjs serve org\/fake-checkpoint on port \d+/);
    assert.match(run.stdout, /vLLM ready after [\d.]+ s at http:\/\/127\.0\.0\.1:\d+\/v1/);
  });

  it('routes the rollouts to it through the vllm_model path', () => {
    assert.equal(rows.length, 2);
    const requests = events.filter((e) => e['event'] === 'request');
    assert.ok(requests.length >= 2, JSON.stringify(events));
    for (const r of requests) assert.deepEqual([r['path'], r['model']], ['/v1/chat/completions', 'org/fake-checkpoint']);
    for (const row of rows) {
      const output = (row['response'] as { output: Array<{ type: string; content?: Array<{ text: string }> }> }).output;
      assert.equal(output.at(-1)!.content![0]!.text, 'Hello from the local vLLM.');
    }
  });

  it('stops it when the run ends', () => {
    const pid = events.find((e) => e['event'] === 'start')!['pid'] as number;
    assert.ok(
      events.some((e) => e['event'] === 'stop' && e['signal'] === 'SIGTERM'),
      JSON.stringify(events),
    );
    assert.equal(isAlive(pid), false);
  });
});

describe("local_vllm_model and the original's config", () => {
  it('validates its subprocess config file unchanged (entrypoint app.py)', async () => {
    await assertOriginalConfigValidates(
      'subprocess.yaml',
      [
        'policy_model:',
        '  responses_api_models:',
        '    local_vllm_model:',
        '      entrypoint: app.py',
        '      model: some/checkpoint',
        '      return_token_id_information: false',
        '      uses_reasoning_parser: false',
        '      launcher: subprocess',
        '      num_workers: 1',
        '      subprocess:',
        '        executable: vllm',
        '        startup_timeout_seconds: 600',
        '        shutdown_timeout_seconds: 10',
        '        log_dir: results/local_vllm',
        '      vllm_serve_env_vars: {}',
        '      vllm_serve_kwargs:',
        '        data_parallel_size: 1',
        '        tensor_parallel_size: 1',
        '        pipeline_parallel_size: 1',
        '        gpu_memory_utilization: 0.9',
        '',
      ],
      ['--resources-server', 'example_single_tool_call'],
    );
  });
});
