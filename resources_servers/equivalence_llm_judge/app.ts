/**
 * `equivalence_llm_judge`: `/verify` asks a judge model — any model server of the run, its own
 * `responses_api_models` entry — whether the policy's answer is equivalent to the expected one,
 * with the original's prompt structure, labels and second-pass rules (judge.ts). Each judge call is
 * a CLIENT span under the request's `gym.verify`, so a trace shows judge time apart from the
 * policy's. A judge call that fails gives the original's `judge_failed` row (reward 0.0, routed
 * to the failures file), not a wrong reward.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { defineResourcesServer, VERIFY_REQUEST } from '@gym/server';
import type { ServerFactory, TraceScope } from '@gym/server';
import { Semaphore } from '../../responses_api_models/openai_model/semaphore.js';
import { compileExtractPattern } from './extract.js';
import { judgeRow } from './judge.js';
import type { AskJudge, JudgeRules } from './judge.js';
import { besideSource } from '../beside-source.js';
import { readPromptTemplate } from './prompt-template.js';

/** The server's settings: the original's keys and defaults. */
export const configSchema = z.looseObject({
  judge_model_server: z.object({ type: z.literal('responses_api_models'), name: z.string() }),
  judge_responses_create_params: z.looseObject({ input: z.array(z.unknown()).default([]) }),
  judge_endpoint_max_concurrency: z.int().min(1).nullable().default(64),
  judge_system_message: z.string().nullable().default(null),
  judge_prompt_template_fpath: z.string().default('prompt_templates/equivalence_llm_judge.txt'),
  judge_equal_label: z.string().min(1).default('[[A=B]]'),
  judge_not_equal_label: z.string().min(1).default('[[A!=B]]'),
  question_extract_regex: z.string().nullable().default(null),
  response_extract_regex: z.string().nullable().default(null),
  msg_extraction_failure: z.string().default('[NO VALID ANSWER EXTRACTED]'),
  check_twice_swap: z.boolean().default(false),
  reward_if_swap_fails: z.number().default(0.0),
  use_per_record_regex: z.boolean().default(true),
  extraction_length_threshold: z.int().nullable().default(120),
  check_full_generation_on_fail: z.boolean().default(true),
  reward_if_full_generation_succeeds: z.number().default(0.5),
});

/** `/verify` body: the original's row fields (`options` and `uuid` accepted, unused). */
export const JUDGE_VERIFY_REQUEST = VERIFY_REQUEST.extend({
  uuid: z.union([z.string(), z.int()]).nullable().default(null),
  expected_answer: z.string().nullable().default(null),
  options: z.array(z.record(z.string(), z.string())).nullable().default(null),
  metadata: z.record(z.string(), z.unknown()).nullable().default(null),
});

/** A config regex: one Python rejects is the original's "no match"; one we cannot run as Python does stops the start. */
function configPattern(key: string, source: string | null) {
  if (source === null) return null;
  try {
    return compileExtractPattern(source);
  } catch (error) {
    throw new Error(`${key}: ${(error as Error).message}`, { cause: error });
  }
}

const createEquivalenceLlmJudge: ServerFactory = (context) => {
  const parsed = configSchema.safeParse(context.config);
  if (!parsed.success) {
    throw new Error(`Invalid equivalence_llm_judge config of '${context.instance.instanceName}': ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const config = parsed.data;
  const rules: JudgeRules = config;
  // a relative path is the server folder's, as the original reads it; an absolute one stays as is
  const template = readPromptTemplate(fileURLToPath(besideSource(import.meta.url, config.judge_prompt_template_fpath)));
  const patterns = { question: configPattern('question_extract_regex', config.question_extract_regex), response: configPattern('response_extract_regex', config.response_extract_regex) };
  const judgeUrl = `${context.serverUrl(config.judge_model_server)}/v1/responses`;
  const slots = config.judge_endpoint_max_concurrency === null ? null : new Semaphore(config.judge_endpoint_max_concurrency);

  const askWith =
    (scope: TraceScope | undefined): AskJudge =>
    async (input) => {
      const request = { ...config.judge_responses_create_params, input };
      // the call's CLIENT span is a child of `scope`, the request's gym.verify
      const call = () => context.http.post<Record<string, unknown>>(judgeUrl, request, { scope });
      const { body } = await (slots === null ? call() : slots.run(call));
      if (body === null || typeof body !== 'object' || !Array.isArray(body['output'])) throw new Error(`the judge model at ${judgeUrl} answered without an output list`);
      return { request, response: body };
    };

  return defineResourcesServer({
    name: context.instance.instanceName,
    tools: {},
    verify: {
      input: JUDGE_VERIFY_REQUEST,
      handler: async (body, route) => {
        try {
          return await judgeRow(body, rules, patterns, template, askWith(route.scope));
        } catch (error) {
          // as the original's judge failsafe: a failed judge is its own outcome, not a wrong answer
          const name = error instanceof Error ? error.name : 'Error';
          const message = error instanceof Error ? error.message : String(error);
          return { reward: 0.0, _ng_failure_class: 'judge_failed', _ng_failure_judge_error: `${name}: ${message}` };
        }
      },
    },
    reverifyMode: 'stateless',
  });
};

export default createEquivalenceLlmJudge;
