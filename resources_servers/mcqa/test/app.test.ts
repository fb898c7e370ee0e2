/**
 * `mcqa` over real HTTP: every grading mode, `template_metadata.output_regex`, the config override,
 * bad input, `/aggregate_metrics`; and `gym eval run` with the original README's quick-start flags.
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
import type { ConfigMap } from '@gym/server';
import { assistantMessage, scriptedModelServer } from '@gym/server/testing';
import type { ScriptedModelServer } from '@gym/server/testing';
import createMcqa, { MCQA_CONFIG } from '../app.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OPTIONS: Array<Record<string, string>> = [{ A: 'optA' }, { B: 'optB' }, { C: 'optC' }, { D: 'optD' }];
const TEN_OPTIONS = [...'ABCDEFGHIJ'].map((letter) => ({ [letter]: `option ${letter} text` }));

/** A verify body whose model output is one assistant message with `text`. */
function row(text: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    responses_create_params: { input: [{ role: 'user', content: 'Q?' }] },
    response: { id: 'resp_1', output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }] },
    options: OPTIONS,
    expected_answer: 'B',
    ...fields,
  };
}

async function startServer(raw: ConfigMap, http: ReturnType<typeof createHttpClient>): Promise<{ app: FastifyInstance; url: string }> {
  const definition = await createMcqa(createServerContext(raw, 'mcqa', http));
  const app = definition.build();
  const { url } = await listen(app);
  return { app, url };
}

/** Equal up to floating-point rounding. */
function near(actual: unknown, expected: number): void {
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-9, `${String(actual)} ≈ ${expected}`);
}

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

describe('mcqa resources server', () => {
  const http = createHttpClient();
  const apps: FastifyInstance[] = [];
  let url = '';
  let overriddenUrl = '';
  let raw: ConfigMap;
  const verify = async (body: Record<string, unknown>, at = url) => {
    const res = await post(`${at}/verify`, body);
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json;
  };
  const extracted = async (text: string, fields: Record<string, unknown> = {}) => (await verify(row(text, fields)))['extracted_answer'];

  before(async () => {
    raw = (await loadConfig({ rootDir: ROOT, selectors: { resourcesServers: ['mcqa'], modelTypes: ['simulated_model'] } })).raw;
    const plain = await startServer(raw, http);
    const overridden = await startServer(
      (await loadConfig({ rootDir: ROOT, selectors: { resourcesServers: ['mcqa'], modelTypes: ['simulated_model'] }, overrides: ['mcqa.resources_servers.mcqa.grading_mode=lenient_answer_colon'] }))
        .raw,
      http,
    );
    apps.push(plain.app, overridden.app);
    url = plain.url;
    overriddenUrl = overridden.url;
  });
  after(async () => {
    for (const app of apps) await app.close();
    await http.close();
  });

  it('config: grading_mode defaults to null (each row decides); an unknown mode refuses to start with the key named', async () => {
    assert.deepEqual(MCQA_CONFIG.parse({}), { grading_mode: null });
    const server = (raw['mcqa'] as any).resources_servers.mcqa;
    assert.equal(server.grading_mode, null);
    const broken = structuredClone(raw) as any;
    broken.mcqa.resources_servers.mcqa.grading_mode = 'loose';
    await assert.rejects(async () => createMcqa(createServerContext(broken, 'mcqa', http)), /Invalid mcqa config of 'mcqa': grading_mode/);
  });

  it('strict_single_letter_boxed (the row default): rewards the letter in the last box, echoes the row with its defaults', async () => {
    const body = row('Reasoning… so the answer is \\boxed{B}', { uuid: 'q-1' });
    const answer = await verify(body);
    assert.deepEqual(answer, {
      ...body,
      metadata: null,
      grading_mode: 'strict_single_letter_boxed',
      template_metadata: null,
      reward: 1,
      expected_answer: 'B',
      extracted_answer: 'B',
    });
    const wrong = await verify(row('\\boxed{C}'));
    assert.deepEqual([wrong['reward'], wrong['extracted_answer']], [0, 'C']);
  });

  it('strict_single_letter_boxed reads padded, \\text-wrapped and labelled boxes, the last box, and nothing else', async () => {
    const cases: Array<[string, string | null]> = [
      ['Final: \\boxed{ [C] }', 'C'],
      ['\\boxed{(B)}', 'B'],
      ['\\boxed{\\text{E}}', 'E'],
      ['\\boxed{\\text{I: the ninth option}}', 'I'],
      ['\\[ \\boxed{E: \\text{option E text}} \\]', 'E'],
      ['\\boxed{F) six}', 'F'],
      ['First \\boxed{C}, on reflection \\boxed{E}', 'E'],
      ['Idea: \\boxed{\\text{some idea}}. Final: \\boxed{E}', 'E'],
      ['The answer is C.', null], // no box
      ['\\boxed{A polygenic score}', null], // a sentence, not a letter
      ['\\boxed{B', null], // the last box never closes
      ['\\boxed{c}', null], // lower case is not a letter answer here
      ['\\boxed{K}', null], // not one of the options
    ];
    for (const [text, letter] of cases) assert.equal(await extracted(text, { options: TEN_OPTIONS }), letter, text);
  });

  it('lenient_boxed: a letter as strict, else the one option whose text is inside the last box', async () => {
    const shapes = [{ A: 'Circle' }, { B: 'Square' }, { C: 'Round circle' }];
    const cases: Array<[string, string | null]> = [
      ['\\boxed{B}', 'B'],
      ['Final: \\boxed{ square }', 'B'],
      ['\\boxed{\\text{The  SQUARE}}', 'B'],
      ['\\boxed{round circle}', null], // Circle and Round circle both match: ambiguous
      ['square', null], // outside a box
    ];
    for (const [text, letter] of cases) assert.equal(await extracted(text, { options: shapes, grading_mode: 'lenient_boxed' }), letter, text);
  });

  it('lenient_answer_colon: the first Answer: payload as a letter (any case) or an option text', async () => {
    const cases: Array<[string, string | null]> = [
      ['Answer: c', 'C'],
      ['answer : optC', 'C'],
      ['Answer: \\text{B}', 'B'],
      ['Answer: B\nAnswer: C', 'B'],
      ['**Answer: C**', null], // markdown is lenient_answer_colon_md's job
      ['Answer: G', null],
      ['I pick B', null],
    ];
    for (const [text, letter] of cases) assert.equal(await extracted(text, { grading_mode: 'lenient_answer_colon' }), letter, text);
  });

  it('lenient_answer_colon_md: markdown Answer: lines, the last readable one, lists of letters are no answer', async () => {
    const cases: Array<[string, string | null, typeof OPTIONS]> = [
      ['Reasoning.\n\nAnswer: B', 'B', OPTIONS],
      ['**Answer: C**', 'C', OPTIONS],
      ['__Answer__: A', 'A', OPTIONS],
      ['Answer: B because C is wrong', 'B', OPTIONS],
      ['Answer: B/B', 'B', OPTIONS],
      ['Answer: $D$', 'D', OPTIONS],
      ['Answer: (D)', 'D', OPTIONS],
      ['\\boxed{\\text{Answer: G}}', 'G', TEN_OPTIONS],
      ['Answer: A\nAnswer: B', 'B', OPTIONS],
      ['Answer: B\nAnswer: unknown', 'B', OPTIONS], // the last payload has no letter: the one before counts
      ['Answer: B\nAnswer: A/B/C', 'B', OPTIONS],
      ['Answer: ب', 'B', OPTIONS], // an Arabic option letter
      ['Answer: A/B/C', null, OPTIONS],
      ['Answer: A or B', null, OPTIONS],
      ['Answer: A and B', null, OPTIONS],
      ['Answer: A, B', null, OPTIONS],
      ['**Answer: D/H**', null, TEN_OPTIONS],
      ['Answer: G', null, OPTIONS],
      ['Answer: unknown', null, OPTIONS],
      ['maybe B', null, OPTIONS],
    ];
    for (const [text, letter, options] of cases) assert.equal(await extracted(text, { options, grading_mode: 'lenient_answer_colon_md' }), letter, text);
  });

  it('template_metadata.output_regex comes first: last match, any case, a list in order, localized letters, option text', async () => {
    const cases: Array<[string, unknown, string | null, Record<string, unknown>?]> = [
      ['Final Choice: B', 'Final Choice:\\s*([A-Za-z])', 'B'], // the strict mode alone would find nothing
      ['ANSWER IS b', 'answer is\\s*([A-Z])', 'B'],
      ['Answer: A? Let me reconsider. Answer: B', 'Answer:\\s*([A-Za-z])', 'B'],
      ['Antwort: B', ['Answer\\s*:\\s*([A-Za-z])', 'Antwort\\s*:\\s*([A-Za-z])'], 'B'],
      ['الإجابة: ب', ['الإجابة:\\s*([أ-د])'], 'B'],
      ['Chosen: optC', 'Chosen:\\s*(.+)', 'C'],
      ['Picked (C)', 'Picked \\((?P<letter>[A-D])\\)', 'C'], // Python's named-group spelling
      ['Selected: Z', 'Selected:\\s*([A-Za-z])', 'Z'], // the dataset's pattern is trusted even outside the options
      ['Selected: B', 'Selected:\\s*([A-Za-z])', 'B', { options: [] }],
      ['\\boxed{B} but Final Choice: nothing', 'Final Choice:\\s*([A-Z])\\b', 'B'], // no match: the grading mode reads the box
      ['\\boxed{B}', '([', 'B'], // an invalid pattern: the grading mode decides
      ['Anſwer: c', 'answer:\\s*([a-d])', 'C'], // Python's IGNORECASE: ſ is s
    ];
    for (const [text, pattern, letter, extra] of cases) {
      assert.equal(await extracted(text, { template_metadata: { output_regex: pattern, template_id: 't' }, ...extra }), letter, `${text} ~ ${String(pattern)}`);
    }
  });

  it("output_regex runs with Python's semantics: Unicode \\b on multilingual answers, as the original's MMMLU and Global-PIQA lists score them", async () => {
    const letter = '([A-D]|[أ-د]|[অ]|[ব]|[ড]|[ঢ]|[Ａ]|[Ｂ]|[Ｃ]|[Ｄ])';
    const mmmluFallback = `[\\s\\S]*\\b\\(?\\s*${letter}\\s*\\)?\\.?\\b`;
    const piqa = [
      '(?i)[Tt]he (?:[Bb]est [Aa]nswer|[Ff]inal [Aa]nswer|[Aa]nswer)[^A-B]*([A-B])',
      '(?i)[Aa]nswer\\s*:[^A-B]*([A-B])',
      '(?i)\\\\boxed\\{([A-B])\\}',
      '[\\s\\S]*\\b\\(?\\s*([A-B])\\s*\\)?\\.?\\b',
    ];
    const reward = async (text: string, patterns: unknown, expected: string) =>
      (await verify(row(text, { expected_answer: expected, options: [{ A: 'one' }, { B: 'two' }], grading_mode: 'lenient_answer_colon', template_metadata: { output_regex: patterns } })))['reward'];
    assert.equal(await reward('The answer is أ.', [mmmluFallback], 'A'), 1); // أ is a word character to Python
    for (const text of ['答案是A。', '答えはBです', 'คำตอบคือA', '정답은 B입니다']) {
      assert.equal(await reward(text, piqa, text.includes('A') ? 'A' : 'B'), 0, text); // no \\b between a CJK/Thai/Korean letter and A
    }
    assert.equal(await reward('The answer is (B).', piqa, 'B'), 1);
  });

  it('an output_regex with several groups fails the request as in the original; one that cannot run as in Python says why', async () => {
    const twoGroups = await post(`${url}/verify`, row('Choice A then B', { template_metadata: { output_regex: '(A).*(B)' } }));
    assert.equal(twoGroups.status, 500);
    assert.match(String(twoGroups.json), /^AttributeError\('\\'tuple\\' object has no attribute \\'strip\\'/);
    const untranslatable = await post(`${url}/verify`, row('Answer: B', { template_metadata: { output_regex: '(Answer): (?(1)B)' } }));
    assert.equal(untranslatable.status, 500);
    assert.match(String(untranslatable.json), /UnsupportedPythonRegexError\('cannot match a conditional group/);
  });

  it('a dataset pattern that backtracks without end gives no answer instead of hanging the server', async () => {
    // `(a+)+$` over forty a's and a `!` would run for hours; the grading mode decides instead
    const text = `\\boxed{B} ${'a'.repeat(40)}!`;
    assert.equal(await extracted(text, { template_metadata: { output_regex: '(a+)+$', template_id: 't' } }), 'B');
    // and the server still answers the next request
    assert.equal(await extracted('Final Choice: C', { template_metadata: { output_regex: 'Final Choice:\\s*([A-Z])', template_id: 't' } }), 'C');
  });

  it('an empty reply or no expected answer is reward 0; the expected answer is echoed trimmed and upper case', async () => {
    const empty = await verify(row('   '));
    assert.deepEqual([empty['reward'], empty['extracted_answer'], empty['expected_answer']], [0, null, 'B']);
    const lower = await verify(row('\\boxed{C}', { expected_answer: ' c ' }));
    assert.deepEqual([lower['reward'], lower['expected_answer']], [1, 'C']);
    const none = await verify(row('\\boxed{C}', { expected_answer: null }));
    assert.deepEqual([none['reward'], none['extracted_answer'], none['expected_answer']], [0, 'C', '']);
    const noOptions = await verify(row('\\boxed{C}', { options: undefined }));
    assert.deepEqual([noOptions['reward'], noOptions['extracted_answer'], noOptions['options']], [0, null, null]);
  });

  it('a config grading_mode overrides the row', async () => {
    const text = 'I think B.\n\nAnswer: B';
    assert.equal((await verify(row(text, { grading_mode: 'strict_single_letter_boxed' })))['extracted_answer'], null);
    const answer = await verify(row(text, { grading_mode: 'strict_single_letter_boxed' }), overriddenUrl);
    assert.deepEqual([answer['reward'], answer['extracted_answer']], [1, 'B']);
  });

  it('bad rows get a 422 naming the field', async () => {
    for (const [fields, loc] of [
      [{ options: [{ A: 1 }] }, ['body', 'options', 0, 'A']],
      [{ grading_mode: 'fuzzy' }, ['body', 'grading_mode']],
      [{ expected_answer: 2 }, ['body', 'expected_answer']],
    ] as const) {
      const res = await post(`${url}/verify`, row('\\boxed{B}', fields));
      assert.equal(res.status, 422);
      assert.deepEqual(res.json['detail'][0].loc, loc);
    }
  });

  it('aggregate_metrics: pass@k, majority@k and no_answer by task, with the headline metrics MCQA picks', async () => {
    const responses = [
      { _ng_task_index: 0, _ng_rollout_index: 0, reward: 1, extracted_answer: 'A' },
      { _ng_task_index: 0, _ng_rollout_index: 1, reward: 1, extracted_answer: 'A' },
      { _ng_task_index: 1, _ng_rollout_index: 0, reward: 0, extracted_answer: 'B' },
      { _ng_task_index: 1, _ng_rollout_index: 1, reward: 1, extracted_answer: 'C' },
      { _ng_task_index: 2, _ng_rollout_index: 0, reward: 0, extracted_answer: null },
      { _ng_task_index: 2, _ng_rollout_index: 1, reward: 0, extracted_answer: null },
    ];
    const { status, json } = await post(`${url}/aggregate_metrics`, { verify_responses: responses });
    assert.equal(status, 200);
    const m = json['agent_metrics'];
    assert.equal(m['mean/reward'], 0.5);
    assert.equal(m['pass@1/accuracy'], 50); // (1 + 0.5 + 0) / 3
    near(m['pass@2/accuracy'], 200 / 3);
    assert.equal(m['majority@2/accuracy'], 50); // task 1 ties (B: 0, C: 1) → 0.5; task 2 has no answer → 0
    near(m['pass@1[avg-of-2]/no_answer'], 100 / 3);
    near(m['pass@2/no_answer'], 100 / 3);
    assert.equal(m['majority@2/no_answer'], 0);
    const perSample = m['per_sample_aggregate'];
    [100 / 3, 200 / 3].forEach((v, i) => near(perSample.accuracy[i], v));
    [100 / 3, 100 / 3].forEach((v, i) => near(perSample.no_answer[i], v));
    near(m['pass@1[avg-of-2]/accuracy/std_dev_across_runs'], Math.sqrt((100 / 3 - 50) ** 2 + (200 / 3 - 50) ** 2));
    near(m['pass@1[avg-of-2]/accuracy/std_err_across_runs'], Math.sqrt((100 / 3 - 50) ** 2 + (200 / 3 - 50) ** 2) / Math.SQRT2);
    assert.deepEqual(Object.keys(json['key_metrics']).sort(), ['majority@2/accuracy', 'mean/reward', 'pass@1/accuracy', 'pass@1[avg-of-2]/accuracy', 'pass@1[avg-of-2]/no_answer', 'pass@2/no_answer']);
    for (const [key, value] of Object.entries(json['key_metrics'])) assert.equal(value, m[key], key);
    assert.deepEqual(
      json['group_level_metrics'].map((g: Record<string, unknown>) => g['_ng_task_index']),
      [0, 1, 2],
    );
  });

  it('aggregate_metrics: nothing to aggregate is empty; a response without a reward is a 422', async () => {
    assert.deepEqual((await post(`${url}/aggregate_metrics`, { verify_responses: [] })).json, { group_level_metrics: [], agent_metrics: {}, key_metrics: {} });
    const res = await post(`${url}/aggregate_metrics`, { verify_responses: [{ extracted_answer: 'A' }] });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json['detail'][0].loc, ['body', 'verify_responses', 0, 'reward']);
  });

  it('is stateless to reverify and seeds sessions with an empty answer', async () => {
    assert.equal(await (await fetch(`${url}/reverify_mode`)).json(), 'stateless');
    assert.deepEqual((await post(`${url}/seed_session`, row('x'))).json, {});
  });
});

describe('gym eval run with mcqa (end to end)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-mcqa-'));
  let child: ChildProcess | undefined;
  let model: ScriptedModelServer | undefined;
  after(async () => {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the original README's quick start (openai_model, mcqa_simple_agent, --limit 5) and grades each row as its mode says", async () => {
    // An OpenAI-compatible endpoint that answers every question the same way, in two formats.
    model = await scriptedModelServer([], { output: [assistantMessage('Most of the air is nitrogen: \\boxed{B}\n\nAnswer: B')] });
    const port = await freePort();
    const out = join(dir, 'mcqa_rollouts.jsonl');
    const args = [
      'eval',
      'run',
      '--resources-server',
      'mcqa',
      '--model-type',
      'openai_model',
      '--agent',
      'mcqa_simple_agent',
      '--input',
      'resources_servers/mcqa/data/example.jsonl',
      '--output',
      out,
      '--limit',
      '5',
      '--num-repeats',
      '1',
    ];
    const modelFlags = ['--model-url', `${model.url}/v1`, '--model-api-key', 'test-key', '-m', 'scripted'];
    child = spawn(process.execPath, [join(ROOT, 'packages/runtime/bin/gym.mjs'), ...args, ...modelFlags, '--log-dir', join(dir, 'logs'), `++head_server.port=${port}`], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout?.resume();
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child!.on('exit', resolve));
    assert.equal(code, 0, stderr);

    const inputs = readFileSync(join(ROOT, 'resources_servers/mcqa/data/example.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, any>);
    rows.sort((a, b) => a['_ng_task_index'] - b['_ng_task_index']);
    assert.deepEqual(
      rows.map((r) => r['_ng_task_index']),
      [0, 1, 2, 3, 4],
    );
    for (const r of rows) {
      const input = inputs[r['_ng_task_index']];
      assert.equal(r['agent_ref'].name, 'mcqa_simple_agent');
      assert.deepEqual([r['uuid'], r['options'], r['expected_answer'], r['grading_mode']], [input.uuid, input.options, input.expected_answer, input.grading_mode]);
      // B is a valid option everywhere and the box is read in every boxed mode.
      assert.equal(r['extracted_answer'], 'B');
      assert.equal(r['reward'], input.expected_answer === 'B' ? 1 : 0);
    }
    assert.ok(rows.some((r) => r['reward'] === 1) && rows.some((r) => r['reward'] === 0), 'the example rows hold right and wrong answers for this reply');
    const [metrics] = JSON.parse(readFileSync(join(dir, 'mcqa_rollouts_aggregate_metrics.json'), 'utf8'));
    assert.equal(metrics.agent_ref.name, 'mcqa_simple_agent');
    const rightShare = (100 * rows.filter((r) => r['reward'] === 1).length) / rows.length;
    assert.deepEqual(metrics.key_metrics, {
      'mean/reward': rightShare / 100,
      'pass@1[avg-of-1]/accuracy': rightShare,
      'pass@1[avg-of-1]/no_answer': 0,
      'pass@1/no_answer': 0,
      'majority@1/accuracy': rightShare,
      'pass@1/accuracy': rightShare,
    });
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
