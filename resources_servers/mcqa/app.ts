/**
 * `mcqa`: multiple-choice question answering. `/verify` reads the answer letter from the model's
 * final text (the dataset's `template_metadata.output_regex`, else the grading mode) and rewards
 * 1.0 when it is `expected_answer`; `/aggregate_metrics` adds pass@k, majority@k and no-answer
 * rates. Rows, config keys and the verify answer are the original's (docs/environments.md).
 * @module
 */
import { z } from 'zod';
import { computeVerifyMetrics, defineResourcesServer } from '@gym/server';
import type { ServerFactory } from '@gym/server';
import { GRADING_MODES, gradeAnswer } from './grade.js';
import { mcqaKeyMetrics, passMajorityMetrics } from './metrics.js';
import type { ScoredRollout } from './metrics.js';

/** The server's config keys; `grading_mode`, when set, overrides every row's. */
export const MCQA_CONFIG = z.looseObject({
  grading_mode: z.enum(GRADING_MODES).nullable().default(null),
});

/** Its settings, as `gym env validate` checks them. */
export const configSchema = MCQA_CONFIG;

/** `/verify` body: the original's row fields, defaults filled in (they are echoed in the answer). */
export const MCQA_VERIFY_REQUEST = z.looseObject({
  responses_create_params: z.looseObject({}),
  response: z.looseObject({ output: z.array(z.unknown()) }),
  uuid: z.string().nullable().default(null),
  options: z.array(z.record(z.string(), z.string().nullable())).nullable().default(null),
  expected_answer: z.string().nullable().default(null),
  metadata: z.record(z.string(), z.unknown()).nullable().default(null),
  grading_mode: z.enum(GRADING_MODES).default('strict_single_letter_boxed'),
  template_metadata: z.record(z.string(), z.unknown()).nullable().default(null),
});

/** `/aggregate_metrics` body: every verify response needs its reward. */
const MCQA_AGGREGATE_REQUEST = z.looseObject({
  verify_responses: z.array(z.looseObject({ reward: z.union([z.number(), z.boolean()]).transform(Number) })),
});

/** The text of every `output_text` part of the response's messages, joined (the SDKs' `output_text`). */
export function outputText(output: readonly unknown[]): string {
  let text = '';
  for (const item of output) {
    const message = item as { type?: unknown; content?: unknown };
    if (message?.type !== 'message' || !Array.isArray(message.content)) continue;
    for (const part of message.content as Array<{ type?: unknown; text?: unknown }>) {
      if (part?.type === 'output_text' && typeof part.text === 'string') text += part.text;
    }
  }
  return text;
}

const createMcqa: ServerFactory = (context) => {
  const parsed = MCQA_CONFIG.safeParse(context.config);
  if (!parsed.success) {
    throw new Error(`Invalid mcqa config of '${context.instance.instanceName}': ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const configMode = parsed.data.grading_mode;
  return defineResourcesServer({
    name: context.instance.instanceName,
    tools: {},
    verify: {
      input: MCQA_VERIFY_REQUEST,
      handler: (body) => gradeAnswer(outputText(body.response.output), body, configMode ?? body.grading_mode),
    },
    aggregateMetrics: {
      input: MCQA_AGGREGATE_REQUEST,
      // The common reward profile (per task and overall), then MCQA's own metrics over the same
      // rows grouped by task, and the headline metrics MCQA picks.
      handler: (body) =>
        computeVerifyMetrics((body as z.output<typeof MCQA_AGGREGATE_REQUEST>).verify_responses, {
          computeMetrics: (tasks) => passMajorityMetrics(tasks as unknown as ScoredRollout[][]),
          getKeyMetrics: mcqaKeyMetrics,
        }),
    },
    reverifyMode: 'stateless',
  });
};

export default createMcqa;
