/**
 * `code_gen`: rewards against our Python reference of the original on the same programs and tests;
 * hostile programs that neither hang nor harm the server and say why they failed; the original's
 * config file validating unchanged.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createHttpClient, createServerContext, loadConfig } from '@gym/server';
import { childPids } from '../../../packages/runtime/test/support/gym-process.js';
import createCodeGen from '../app.js';
import { programCases } from './programs.js';
import type { UnitTests } from './programs.js';
import { assertOriginalConfigValidates } from '../../test-support/original-config.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const REFERENCE = fileURLToPath(new URL('./reference.py', import.meta.url));
const EXAMPLE = join(ROOT, 'resources_servers/code_gen/data/example.jsonl');
const SETTINGS = ['unit_test_timeout_secs=1', '+memory_limit_mb=512', '+output_limit_chars=100000', 'num_processes=4'].map((s) => s.replace(/^(\+?)/, '$1code_gen.resources_servers.code_gen.'));

function body(text: string, unitTests: UnitTests, violation = false): Record<string, unknown> {
  const output: unknown[] = [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }];
  if (violation) output.unshift({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: '<think>a</think><think>b</think>' }] });
  return { responses_create_params: { input: [{ role: 'user', content: 'solve' }] }, response: { id: 'resp_1', output }, verifier_metadata: { unit_tests: unitTests, difficulty: 'easy' } };
}

// The server makes its sandboxes under os.tmpdir(): a directory of this test's own, so another
// test run on the machine (its sandboxes in the shared /tmp) cannot look like a leftover of ours.
const testTmp = mkdtempSync(join(tmpdir(), 'gym-code-gen-test-'));
const savedTmpdir = process.env['TMPDIR'];
const sandboxDirs = () => readdirSync(testTmp).filter((name) => name.startsWith('gym-code-gen-'));

describe('code_gen', () => {
  let app: FastifyInstance;
  const http = createHttpClient();
  const problems = readFileSync(EXAMPLE, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { verifier_metadata: { unit_tests: UnitTests } }).verifier_metadata.unit_tests);
  before(async () => {
    process.env['TMPDIR'] = testTmp;
    const config = await loadConfig({ rootDir: ROOT, selectors: { resourcesServers: ['code_gen'], modelTypes: ['simulated_model'] }, overrides: SETTINGS });
    app = (await createCodeGen(createServerContext(config.raw, 'code_gen', http))).build();
  });
  after(async () => {
    await app.close();
    await http.close();
    if (savedTmpdir === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = savedTmpdir;
    rmSync(testTmp, { recursive: true, force: true });
  });
  const verify = async (payload: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url: '/verify', payload });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Record<string, any>>();
  };

  it('rewards as our Python reference of the original does, on the same programs and tests', async () => {
    const cases = programCases(problems);
    // both at once: the reference runs its programs one by one, the server four at a time
    const referenceRun = promisify(execFile)('python3', [REFERENCE, JSON.stringify({ timeout: 1, cases })]);
    const ours = await Promise.all(cases.map((c) => verify(body(c.text, c.unit_tests, c.violation))));
    const reference = JSON.parse((await referenceRun).stdout) as Array<{ reward: number; result: unknown[] | null }>;
    for (const [i, c] of cases.entries()) {
      assert.equal(ours[i]!['reward'], reference[i]!.reward, `${c.label}: ${JSON.stringify(ours[i]!['metadata'])}`);
      assert.deepEqual(ours[i]!['result'], reference[i]!.result, c.label);
    }
    assert.equal(cases.length, 42);
    assert.deepEqual(
      ours.slice(0, 8).map((r) => r['metadata']?.['error_message'] ?? null), // problem 0
      [null, 'Wrong answer at output_line_idx=0: 7 != 6', 'Runtime Error', 'Time Limit Exceeded', null, null, null, null],
    );
    assert.equal(ours[0]!['extracted_model_code'], 'n = int(input())\nprint(sum(map(int, input().split())))');
    assert.equal(ours[7]!['reasoning_format_violation_rate'], 1.0);
    assert.equal(ours[0]!['difficulty'], 'easy');
  });

  it('contains hostile programs (ten): each fails, says why, and leaves neither processes, files nor temp dirs behind', async () => {
    const before = sandboxDirs();
    const outside = join(tmpdir(), `gym-code-gen-escape-${process.pid}`);
    const listener = createServer((socket) => socket.destroy()).listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    const port = (listener.address() as { port: number }).port;
    const stdio: UnitTests = { inputs: ['1'], outputs: ['1'], fn_name: null };
    const call: UnitTests = { inputs: ['1'], outputs: ['1'], fn_name: 'f' };
    const hostile: Array<[string, string, UnitTests, RegExp]> = [
      ['fork bomb', 'import os\nwhile True:\n    os.fork()', stdio, /blocked in the sandbox: os\.fork/],
      ['shell fork bomb', 'import subprocess\nsubprocess.run(":(){ :|:& };:", shell=True)', stdio, /blocked in the sandbox: import subprocess/],
      ['native code', 'import ctypes\nctypes.CDLL(None).fork()', stdio, /blocked in the sandbox: import ctypes/],
      ['infinite loop that ignores the alarm', 'import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    pass', stdio, /^Time limit of the whole run exceeded: killed after 7 s/],
      ['huge output', 'while True:\n    print("x" * 100000)', stdio, /OutputLimit/],
      ['huge output past the capture', 'import os\nwhile True:\n    os.write(1, b"x" * 100000)', stdio, /^Output limit exceeded/],
      ['memory hog', 'def f(x):\n    return len(bytearray(8 * 1024 ** 3))', call, /MemoryError/],
      ['writes outside its directory', `def f(x):\n    open(${JSON.stringify(outside)}, "w").write("pwned")\n    return 1`, call, /writing .* outside its directory/],
      ['a forged result line', 'import os\nos.write(1, b\'\\n{"result": [true], "metadata": {}}\\n\')\nos._exit(0)', stdio, /^The sandbox process ended without a result \(exit code 0\)/],
      ['network', `import socket\ndef f(x):\n    socket.create_connection(("127.0.0.1", ${port}), timeout=1)\n    return 1`, call, /blocked in the sandbox: socket\./],
    ];
    try {
      const answers = await Promise.all(hostile.map(([, code, tests]) => verify(body(`\`\`\`python\n${code}\n\`\`\``, tests))));
      for (const [i, [label, , , why]] of hostile.entries()) {
        const answer = answers[i]!;
        assert.equal(answer['reward'], 0, label);
        assert.match(`${answer['metadata']['error_message']} ${answer['metadata']['error'] ?? ''}`, why, `${label}: ${JSON.stringify(answer['metadata'])}`);
      }
      assert.equal(existsSync(outside), false);
      // the server still grades a right answer afterwards
      assert.equal((await verify(body('```python\nprint(input())\n```', stdio)))['reward'], 1);
      assert.deepEqual(sandboxDirs(), before);
      const sandboxProcesses = childPids(process.pid).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runner.py'));
      assert.deepEqual(sandboxProcesses, []);
    } finally {
      listener.close();
      rmSync(outside, { force: true });
    }
  });

  it("validates the original's config file unchanged (entrypoint app.py, datasets from a registry)", async () => {
    await assertOriginalConfigValidates('code_gen.yaml', [
      'code_gen:',
      '  resources_servers:',
      '    code_gen:',
      '      entrypoint: app.py',
      '      domain: coding',
      '      verified: true',
      '      verified_url: https://example.com/run',
      '      description: Model must submit the right code to solve a problem',
      '      value: Improve competitive coding capabilities',
      '      num_processes: 8',
      '      unit_test_timeout_secs: 10',
      '      debug: false',
      'code_gen_simple_agent:',
      '  responses_api_agents:',
      '    simple_agent:',
      '      entrypoint: app.py',
      '      resources_server: {type: resources_servers, name: code_gen}',
      '      model_server: {type: responses_api_models, name: policy_model}',
      '      datasets:',
      '      - {name: train, type: train, jsonl_fpath: resources_servers/code_gen/data/train.jsonl, huggingface_identifier: {repo_id: nvidia/x, artifact_fpath: train.jsonl}, license: Apache 2.0, num_repeats: 1}',
      '      - {name: example, type: example, jsonl_fpath: resources_servers/code_gen/data/example.jsonl}',
      '',
    ]);
  });
});
