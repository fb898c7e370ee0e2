/**
 * `equivalence_llm_judge` over HTTP: four server variants in front of a real judge model server
 * that answers from a script, and rewards, prompts and verdicts compared with our Python reference
 * of the original's grading on generated cases; a failing judge; the original's config file.
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createHttpClient, createServerContext, defineModelServer, listen } from '@gym/server';
import { assertOriginalConfigValidates } from '../../test-support/original-config.js';
import createEquivalenceLlmJudge from '../app.js';
import { judgeCases, VARIANTS } from './cases.js';
import type { JudgeCase } from './cases.js';

const REFERENCE = fileURLToPath(new URL('./reference.py', import.meta.url));
const TEMPLATE = readFileSync(new URL('../prompt_templates/equivalence_llm_judge.txt', import.meta.url), 'utf8');
const CASES = 400;

interface Reference {
  reward?: number;
  prompts?: string[];
  labels?: Array<string | null>;
  expected_answer?: string;
  judge_failed?: string;
}

describe('equivalence_llm_judge', () => {
  const http = createHttpClient({ retry: { maxAttempts: 1 } });
  const apps: FastifyInstance[] = [];
  const urls: Record<string, string> = {};
  /** What the judge answers next (one output list per call), and the inputs it was sent. */
  let script: unknown[][] = [];
  const received: Array<Array<{ role: string; content: string }>> = [];
  let judgeStatus = 200;

  before(async () => {
    const judge = defineModelServer({
      name: 'judge_model',
      responses: {
        handler: (body) => {
          received.push(body['input'] as Array<{ role: string; content: string }>);
          if (judgeStatus !== 200) throw Object.assign(new Error('judge down'), { statusCode: judgeStatus });
          return { id: 'resp_judge', object: 'response', model: 'judge', status: 'completed', output: script.shift() ?? [] };
        },
      },
      chatCompletions: { handler: () => ({ choices: [] }) },
    }).build();
    apps.push(judge);
    const judgePort = Number(new URL((await listen(judge)).url).port);
    for (const [variant, rules] of Object.entries(VARIANTS)) {
      const tree = {
        judge_model: { responses_api_models: { scripted: { entrypoint: 'app.ts', host: '127.0.0.1', port: judgePort } } },
        [variant]: {
          resources_servers: {
            equivalence_llm_judge: {
              entrypoint: 'app.ts',
              domain: 'knowledge',
              judge_model_server: { type: 'responses_api_models', name: 'judge_model' },
              judge_responses_create_params: { input: [], temperature: 0 },
              ...rules,
            },
          },
        },
      };
      const app = (await createEquivalenceLlmJudge(createServerContext(tree, variant, http))).build();
      apps.push(app);
      urls[variant] = (await listen(app)).url;
    }
  });
  after(async () => {
    for (const app of apps) await app.close();
    await http.close();
  });

  const verify = async (variant: string, row: Record<string, unknown>) => {
    const res = await fetch(`${urls[variant]}/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(row) });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Record<string, unknown>;
  };

  it(`rewards, prompts and verdicts as our Python reference of the original on ${CASES} generated cases`, async (t) => {
    const cases: JudgeCase[] = judgeCases(CASES);
    const input = { template: TEMPLATE, cases: cases.map((c) => ({ rules: VARIANTS[c.variant], row: c.row, replies: c.replies })) };
    const reference = JSON.parse(execFileSync('python3', [REFERENCE], { input: JSON.stringify(input) }).toString()) as Reference[];
    const tally = { judged: 0, failed: 0, partial: 0, swapped: 0 };
    for (const [i, c] of cases.entries()) {
      script = c.replies.map((r) => r);
      received.length = 0;
      const answer = await verify(c.variant, c.row);
      const expected = reference[i]!;
      const what = `case ${i} (${c.variant}): ${JSON.stringify(c.row).slice(0, 400)}`;
      if (expected.judge_failed !== undefined) {
        tally.failed++;
        assert.equal(answer['_ng_failure_class'], 'judge_failed', what);
        assert.match(String(answer['_ng_failure_judge_error']), new RegExp(`^${expected.judge_failed}: `), what);
        assert.equal(answer['reward'], 0, what);
        continue;
      }
      tally.judged++;
      assert.equal(answer['reward'], expected.reward, what);
      assert.equal(answer['expected_answer'], expected.expected_answer, what);
      assert.deepEqual(
        received.map((messages) => messages.at(-1)!.content),
        expected.prompts,
        what,
      );
      const system = VARIANTS[c.variant]!['judge_system_message'];
      for (const messages of received) assert.deepEqual(messages.length === 2 ? messages[0] : null, system ? { role: 'system', content: system } : null, what);
      const evaluations = answer['judge_evaluations'] as Array<{ verdict_label: string | null }>;
      assert.deepEqual(
        evaluations.map((e) => e.verdict_label),
        expected.labels,
        what,
      );
      if (expected.reward !== 0 && expected.reward !== 1) tally.partial++;
      if (received.length === 2) tally.swapped++;
    }
    // the generator reaches every path: judged once and twice, partial and negative rewards, failures
    assert.ok(tally.failed > 5 && tally.partial > 5 && tally.swapped > 20, JSON.stringify(tally));
    t.diagnostic(`cases: ${JSON.stringify(tally)}`);
  });

  it('answers a judge that fails with the original judge_failed row (reward 0.0), not a wrong reward', async () => {
    judgeStatus = 500;
    try {
      const answer = await verify('defaults', { responses_create_params: { input: [{ role: 'user', content: 'q' }] }, response: { output: [] }, expected_answer: 'a' });
      assert.equal(answer['reward'], 0);
      assert.equal(answer['_ng_failure_class'], 'judge_failed');
      assert.match(String(answer['_ng_failure_judge_error']), /^GymHttpStatusError: .*500/);
    } finally {
      judgeStatus = 200;
    }
  });

  it('refuses at start a prompt template with a placeholder the original does not fill', async () => {
    const tree = {
      s: {
        resources_servers: {
          equivalence_llm_judge: {
            entrypoint: 'app.ts',
            domain: 'knowledge',
            judge_model_server: { type: 'responses_api_models', name: 'judge_model' },
            judge_responses_create_params: { input: [] },
            judge_prompt_template_fpath: 'test/fixtures/bad-template.txt',
          },
        },
      },
      judge_model: { responses_api_models: { scripted: { entrypoint: 'app.ts', host: '127.0.0.1', port: 1 } } },
    };
    await assert.rejects(async () => createEquivalenceLlmJudge(createServerContext(tree, 's', http)), /placeholder '\{answer\}'/);
  });

  it("validates the original's config file unchanged (entrypoint app.py)", async () => {
    await assertOriginalConfigValidates('equivalence_llm_judge.yaml', [
      'equivalence_llm_judge:',
      '  resources_servers:',
      '    equivalence_llm_judge:',
      '      entrypoint: app.py',
      '      judge_model_server:',
      '        type: responses_api_models',
      '        name: policy_model',
      '      judge_responses_create_params:',
      '        input: []',
      '      judge_prompt_template_fpath: prompt_templates/equivalence_llm_judge.txt',
      '      judge_endpoint_max_concurrency: 64',
      '      judge_system_message: null',
      "      judge_equal_label: '[[A=B]]'",
      "      judge_not_equal_label: '[[A!=B]]'",
      '      question_extract_regex: null',
      '      response_extract_regex: null',
      '      check_twice_swap: false',
      '      reward_if_swap_fails: 0.0',
      '      use_per_record_regex: true',
      '      extraction_length_threshold: null',
      '      check_full_generation_on_fail: false',
      '      reward_if_full_generation_succeeds: 0.0',
      '      domain: knowledge',
      '      verified: false',
      '      description: Short answer questions with LLM-as-a-judge',
      '      value: Improve knowledge-related benchmarks like GPQA / HLE',
      '',
    ]);
  });
});
