/**
 * `example_multi_step`: its tools, `/verify` against our Python reference of the original's grading
 * on generated cases, and the original's config file validating unchanged.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createHttpClient, createServerContext, loadConfig } from '@gym/server';
import { assertOriginalConfigValidates } from '../../test-support/original-config.js';
import createExampleMultiStep from '../app.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const REFERENCE = fileURLToPath(new URL('./reference.py', import.meta.url));
const INSTANCE = 'example_multi_step_resources_server';

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function call(name: string, args: string): Record<string, unknown> {
  return { type: 'function_call', call_id: 'call_1', name, arguments: args, id: 'fc_1', status: 'completed' };
}

/** Verify bodies over the shapes a model produces: right, reordered, partial, padded, minefield, repeated calls, malformed. */
function generateCases(count: number): Array<Record<string, any>> {
  const next = random(19);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const cases: Array<Record<string, any>> = [];
  for (let i = 0; i < count; i++) {
    const expected = Array.from({ length: 1 + Math.floor(next() * 3) }, () => 300 + Math.floor(next() * 600));
    const label = pick(['Hot', 'Cold', 'Fast']);
    const labelValue = 250 + Math.floor(next() * 50);
    const variants: unknown[][] = [
      expected,
      [...expected].reverse(),
      expected.slice(1),
      [...expected, expected[0]!],
      [...expected, labelValue],
      [label, ...expected],
      expected.map((v) => v + 0.0),
      [],
      [true, ...expected.slice(1)],
    ];
    const output: unknown[] = [call('get_synonym_value', '{"synonym":"x"}')];
    const calls = 1 + Math.floor(next() * 2);
    for (let c = 0; c < calls; c++) output.push(call('extract_synonym_values', JSON.stringify({ synonym_values: pick(variants) })));
    if (next() < 0.1) output.push(call('extract_synonym_values', pick(['not json', '{"other":1}', '[1]'])));
    if (next() < 0.1) output.length = 1; // never submitted
    output.push({ type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] });
    cases.push({
      responses_create_params: { input: [{ role: 'user', content: 'q' }] },
      response: { id: 'resp_1', output },
      id: i,
      expected_synonym_values: expected,
      expected_synonyms: expected.map((v) => `s${v}`),
      minefield_label: label,
      minefield_label_value: labelValue,
    });
  }
  return cases;
}

describe('example_multi_step', () => {
  let app: FastifyInstance;
  const http = createHttpClient();
  before(async () => {
    const config = await loadConfig({ rootDir: ROOT, selectors: { resourcesServers: ['example_multi_step'], modelTypes: ['simulated_model'] } });
    app = (await createExampleMultiStep(createServerContext(config.raw, INSTANCE, http))).build();
  });
  after(async () => {
    await app.close();
    await http.close();
  });
  const post = async (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object });

  it('values a synonym as the sum of its code points, and acknowledges a submission', async () => {
    assert.deepEqual((await post('/get_synonym_value', { synonym: 'Warm' })).json(), { synonym_value: 407 });
    assert.deepEqual((await post('/extract_synonym_values', { synonym_values: [1, 2] })).json(), { success: true });
    for (const [path, payload, field] of [
      ['/get_synonym_value', {}, 'synonym'],
      ['/extract_synonym_values', { synonym_values: ['a'] }, 'synonym_values'],
    ] as const) {
      const res = await post(path, payload);
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().detail[0].loc[1], field);
    }
  });

  it('grades as our Python reference of the original does, on 400 generated cases', async () => {
    const cases = generateCases(400);
    const synonyms = ['Warm', 'Blazing', 'Gale-force', 'naïve', 'Ünïcödé 🔥', ''];
    const reference = JSON.parse(execFileSync('python3', [REFERENCE], { input: JSON.stringify({ verify: cases, synonyms }) }).toString()) as {
      verify: Array<Record<string, unknown>>;
      synonyms: number[];
    };
    let graded = 0;
    for (const [i, body] of cases.entries()) {
      const res = await post('/verify', body);
      assert.equal(res.statusCode, 200, res.body);
      const { reward, parsed_synonym_values, accuracy, set_overlap, original_term_minefield_hit, order_instruction_following_failure } = res.json();
      const ours = { reward, parsed_synonym_values, accuracy, set_overlap, original_term_minefield_hit, order_instruction_following_failure };
      const expected = reference.verify[i]!;
      // Where the original fails the request (malformed arguments), we grade "no values".
      if ('error' in expected) assert.equal(reward, 0, `case ${i}`);
      else {
        assert.deepEqual(ours, expected, `case ${i}: ${JSON.stringify(body.response.output)}`);
        graded++;
      }
    }
    assert.ok(graded > 300, `${graded} cases compared`);
    for (const [i, synonym] of synonyms.entries()) assert.equal((await post('/get_synonym_value', { synonym })).json().synonym_value, reference.synonyms[i]);
  });

  it('refuses a row without its fields with a 422, and is stateless to reverify', async () => {
    const res = await post('/verify', { responses_create_params: { input: 'q' }, response: { output: [] }, id: 0, expected_synonym_values: [] });
    assert.equal(res.statusCode, 422);
    assert.equal((await app.inject({ method: 'GET', url: '/reverify_mode' })).json(), 'stateless');
  });

  it("validates the original's config file unchanged (entrypoint app.py, train and validation datasets from a registry)", async () => {
    await assertOriginalConfigValidates('example_multi_step.yaml', [
      'example_multi_step_resources_server:',
      '  resources_servers:',
      '    example_multi_step:',
      '      entrypoint: app.py',
      '      domain: instruction_following',
      '      verified: false',
      '      description: Multi-step tool calling',
      'example_multi_step_simple_agent:',
      '  responses_api_agents:',
      '    simple_agent:',
      '      entrypoint: app.py',
      '      resources_server: {type: resources_servers, name: example_multi_step_resources_server}',
      '      model_server: {type: responses_api_models, name: policy_model}',
      '      datasets:',
      '      - {name: train, type: train, jsonl_fpath: resources_servers/example_multi_step/data/train.jsonl, source: {type: gitlab, dataset_name: example_multi_step, version: 0.0.1, artifact_fpath: train.jsonl}, license: Apache 2.0}',
      '      - {name: example, type: example, jsonl_fpath: resources_servers/example_multi_step/data/example.jsonl}',
      '',
    ]);
  });
});
