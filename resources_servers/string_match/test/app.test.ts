/**
 * `string_match` over real HTTP: every extraction mode, case-sensitive and grader comparison (each
 * equivalence and the 0.98 near-number reward), defaults, bad input; and `gym eval run`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createHttpClient, createServerContext, listen, loadConfig } from '@gym/server';
import createStringMatch from '../app.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A verify body whose model output is one assistant message with `text`. */
function row(text: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    responses_create_params: { input: [{ role: 'user', type: 'message', content: [{ type: 'input_text', text: 'Q?' }] }] },
    response: { id: 'resp_1', output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }] },
    expected_answer: 'Paris',
    ...fields,
  };
}

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

describe('string_match resources server', () => {
  const http = createHttpClient();
  let app: FastifyInstance;
  let url = '';
  const verify = async (body: Record<string, unknown>) => {
    const res = await post(`${url}/verify`, body);
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json;
  };
  /** [reward, extracted_answer] of `text` graded against `expected` with `fields`. */
  const grade = async (text: string, expected: string, fields: Record<string, unknown> = {}) => {
    const answer = await verify(row(text, { expected_answer: expected, ...fields }));
    return [answer['reward'], answer['extracted_answer']];
  };

  before(async () => {
    const config = await loadConfig({ rootDir: ROOT, selectors: { resourcesServers: ['string_match'], modelTypes: ['simulated_model'] } });
    app = (await createStringMatch(createServerContext(config.raw, 'string_match', http))).build();
    url = (await listen(app)).url;
  });
  after(async () => {
    await app.close();
    await http.close();
  });

  it('defaults: final_answer extraction, case-insensitive grading, metadata null — echoed with the row', async () => {
    const body = row('The capital of France.\nFinal answer: paris.');
    assert.deepEqual(await verify(body), { ...body, extraction_mode: 'final_answer', case_sensitive: false, metadata: null, reward: 1, expected_answer: 'Paris', extracted_answer: 'paris' });
  });

  it('boxed: the last closed \\boxed{}, \\text wrappers removed; an unclosed last box falls back to the one before', async () => {
    const boxed = { extraction_mode: 'boxed' };
    assert.deepEqual(await grade('So \\boxed{Paris}.', 'Paris', boxed), [1, 'Paris']);
    assert.deepEqual(await grade('\\boxed{\\text{ Paris }}', 'Paris', boxed), [1, 'Paris']);
    assert.deepEqual(await grade('first \\boxed{Lyon} then \\boxed{Paris}', 'Paris', boxed), [1, 'Paris']);
    assert.deepEqual(await grade('\\boxed{Paris} and an open \\boxed{Ly', 'Paris', boxed), [1, 'Paris']);
    assert.deepEqual(await grade('\\boxed{\\frac{1}{2}}', '\\frac{1}{2}', boxed), [1, '\\frac{1}{2}']);
    assert.deepEqual(await grade('Paris', 'Paris', boxed), [0, null]);
  });

  it('final_answer: the last Final answer: / Answer: value without trailing periods, else the box', async () => {
    assert.deepEqual(await grade('Answer: Lyon\nFinal Answer: Paris...', 'Paris'), [1, 'Paris']);
    assert.deepEqual(await grade('answer：Paris', 'Paris'), [1, 'Paris']); // a full-width colon
    assert.deepEqual(await grade('I am sure it is \\boxed{Paris}', 'Paris'), [1, 'Paris']);
    assert.deepEqual(await grade('It is Paris', 'Paris'), [0, null]);
  });

  it('last_line and full_response', async () => {
    assert.deepEqual(await grade('Thinking…\r\nParis\r\n\r\n  ', 'Paris', { extraction_mode: 'last_line' }), [1, 'Paris']);
    assert.deepEqual(await grade('  It is Paris  ', 'It is Paris', { extraction_mode: 'full_response' }), [1, 'It is Paris']);
    assert.deepEqual(await grade('   ', 'Paris', { extraction_mode: 'full_response' }), [0, null]);
  });

  it('reads only assistant messages, their text parts or string content, one per line', async () => {
    const body = row('', { extraction_mode: 'full_response', expected_answer: 'thinking paris' });
    (body['response'] as { output: unknown[] }).output = [
      { type: 'message', role: 'user', content: [{ type: 'output_text', text: 'Lyon' }] },
      { type: 'message', role: 'assistant', content: 'Thinking' },
      { type: 'function_call', name: 'f', arguments: '{}' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Paris' }] },
    ];
    const answer = await verify(body);
    assert.deepEqual([answer['reward'], answer['extracted_answer']], [1, 'Thinking\nParis']);
  });

  it('case_sensitive: exact after trimming, nothing else', async () => {
    const exact = { extraction_mode: 'full_response', case_sensitive: true };
    assert.deepEqual(await grade(' NaCl ', 'NaCl', exact), [1, 'NaCl']);
    assert.deepEqual(await grade('nacl', 'NaCl', exact), [0, 'nacl']);
    assert.deepEqual(await grade('NaCl.', 'NaCl', exact), [0, 'NaCl.']);
    // Spelled as the original's row model accepts it, and echoed as a boolean.
    for (const spelled of ['yes', 'True', 1]) {
      const answer = await verify(row('nacl', { expected_answer: 'NaCl', extraction_mode: 'full_response', case_sensitive: spelled }));
      assert.deepEqual([answer['reward'], answer['case_sensitive']], [0, true], String(spelled));
    }
    assert.equal((await verify(row('nacl', { expected_answer: 'NaCl', extraction_mode: 'full_response', case_sensitive: 'off' })))['reward'], 1);
  });

  it('the grader: each equivalence earns 1.0, a near number or a number with units 0.98, anything else 0', async () => {
    const cases: Array<[string, string, number]> = [
      ['"Oven!"', 'oven', 1], // quotes, case, trailing punctuation
      ['ﬁve', 'five', 1], // NFKC
      ['80.0', '80', 1], // the same number
      ['$5', '5', 1],
      ['1,234', '1234', 1], // thousands separator
      ['$\\textbf{Paris}$', 'Paris', 1], // LaTeX markup
      ['red, green, blue', 'red green blue', 1], // a list
      ['New York', 'NY', 1], // a state name
      ['washington, oregon', 'WA OR', 1],
      ['Paris km', 'Paris', 1], // equal text once units are dropped
      ['80 km', '80', 0.98], // a number equal once units are dropped: the near-number reward
      ['90°', '90', 0.98],
      ['3.1416', '3.14159', 0.98], // within about 1%
      ['3.2', '3.14159', 0], // too far
      ['red, green and blue', 'red green blue', 0], // the separators shorten it by over 10%: prose, not a list
      ['x²', 'x^2', 0], // NFKC reads ² as 2
      ['Lyon', 'Paris', 0],
    ];
    for (const [text, expected, reward] of cases) assert.equal((await grade(text, expected, { extraction_mode: 'full_response' }))[0], reward, `${text} vs ${expected}`);
  });

  it('an empty expected answer is reward 0', async () => {
    assert.deepEqual(await grade('Final answer: Paris', ''), [0, 'Paris']);
  });

  it('bad rows get a 422 naming the field', async () => {
    for (const [fields, loc] of [
      [{ expected_answer: undefined }, ['body', 'expected_answer']],
      [{ extraction_mode: 'first_line' }, ['body', 'extraction_mode']],
      [{ case_sensitive: 'maybe' }, ['body', 'case_sensitive']],
    ] as const) {
      const res = await post(`${url}/verify`, row('x', fields));
      assert.equal(res.status, 422);
      assert.deepEqual(res.json['detail'][0].loc, loc);
    }
  });

  it('has no tools, an unknown reverify mode, and seeds sessions with an empty answer', async () => {
    assert.equal(await (await fetch(`${url}/reverify_mode`)).json(), 'unknown');
    assert.deepEqual((await post(`${url}/seed_session`, row('x'))).json, {});
    assert.equal((await post(`${url}/get_weather`, {})).status, 404);
  });
});

describe('gym eval run with string_match (end to end)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-string-match-'));
  let child: ChildProcess | undefined;
  after(() => {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('collects one complete row per example task', async () => {
    const port = await freePort();
    const out = join(dir, 'out.jsonl');
    const args = ['eval', 'run', '--resources-server', 'string_match', '--model-type', 'simulated_model', '-o', out];
    child = spawn(process.execPath, [join(ROOT, 'packages/runtime/bin/gym.mjs'), ...args, '--log-dir', join(dir, 'logs'), `++head_server.port=${port}`], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout?.resume();
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child!.on('exit', resolve));
    assert.equal(code, 0, stderr);

    const inputs = readFileSync(join(ROOT, 'resources_servers/string_match/data/example.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, any>);
    assert.deepEqual(
      rows.map((r) => r['_ng_task_index']).sort((a, b) => a - b),
      inputs.map((_, i) => i),
    );
    for (const r of rows) {
      const input = inputs[r['_ng_task_index']];
      assert.equal(r['agent_ref'].name, 'string_match_simple_agent');
      assert.deepEqual([r['expected_answer'], r['extraction_mode'], r['case_sensitive']], [input.expected_answer, input.extraction_mode, input.case_sensitive]);
      assert.ok(typeof r['reward'] === 'number' && 'extracted_answer' in r && Array.isArray(r['response'].output), JSON.stringify(r));
    }
    const [metrics] = JSON.parse(readFileSync(join(dir, 'out_aggregate_metrics.json'), 'utf8'));
    assert.equal(metrics.agent_metrics['pass@1/accuracy'], 100 * (rows.filter((r) => r['reward'] === 1).length / rows.length));
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
