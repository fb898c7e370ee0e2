/**
 * `string_match`: free-form text answers. `/verify` reads the answer from the model's final text
 * per the row's `extraction_mode` and compares it with `expected_answer` (exact when
 * `case_sensitive`, else the string-match grader); the reward is 1.0, 0.98 for a near-equal number,
 * or 0.0. Rows and the verify answer are the original's (docs/environments.md).
 * @module
 */
import { z } from 'zod';
import { defineResourcesServer } from '@gym/server';
import type { ServerFactory } from '@gym/server';
import { EXTRACTION_MODES, extractAnswer } from './extract.js';
import { matchAnswers } from './grade.js';
import { pyStrip } from './py-text.js';

/** Words read as booleans, as the original's row model reads them (`"yes"`, `"off"`, `1`, …). */
const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);
const LAX_BOOLEAN = z.union([
  z.boolean(),
  z.literal([0, 1]).transform((n) => n === 1),
  z
    .string()
    .refine((s) => TRUE_WORDS.has(s.toLowerCase()) || FALSE_WORDS.has(s.toLowerCase()), 'expected a boolean')
    .transform((s) => TRUE_WORDS.has(s.toLowerCase())),
]);

/** `/verify` body: the original's row fields, defaults filled in (they are echoed in the answer). */
export const STRING_MATCH_VERIFY_REQUEST = z.looseObject({
  responses_create_params: z.looseObject({}),
  response: z.looseObject({ output: z.array(z.unknown()) }),
  expected_answer: z.string(),
  extraction_mode: z.enum(EXTRACTION_MODES).default('final_answer'),
  case_sensitive: LAX_BOOLEAN.default(false),
  metadata: z.record(z.string(), z.unknown()).nullable().default(null),
});

/** The assistant's text: every assistant message's text parts (or string content), one per line, trimmed. */
export function assistantText(output: readonly unknown[]): string {
  const texts: string[] = [];
  for (const item of output) {
    const message = item as { type?: unknown; role?: unknown; content?: unknown };
    if (message?.type !== 'message' || message.role !== 'assistant') continue;
    if (typeof message.content === 'string') texts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content as Array<{ text?: unknown }>) if (typeof part?.text === 'string') texts.push(part.text);
    }
  }
  return pyStrip(texts.join('\n'));
}

/** It has no settings of its own (extraction and case sensitivity are per row): `gym env validate` reports any it is given. */
export const configSchema = z.object({});

const createStringMatch: ServerFactory = (context) =>
  defineResourcesServer({
    name: context.instance.instanceName,
    tools: {},
    verify: {
      input: STRING_MATCH_VERIFY_REQUEST,
      handler: (body) => {
        const extracted = extractAnswer(assistantText(body.response.output), body.extraction_mode);
        const reward = extracted !== null && body.expected_answer !== '' ? matchAnswers(extracted, body.expected_answer, body.case_sensitive) : 0.0;
        return { reward, expected_answer: body.expected_answer, extracted_answer: extracted };
      },
    },
  });

export default createStringMatch;
