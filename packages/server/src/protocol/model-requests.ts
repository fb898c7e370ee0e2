/**
 * Body schemas of the two model routes. The Responses request forbids unknown
 * top-level fields, as the original's pydantic model does.
 * The Chat request is open: it accepts every OpenAI and vLLM chat parameter.
 * @module
 */
import { RESPONSES_REQUEST_FIELDS } from '../server/responses-request.js';
import { z } from 'zod';

/**
 * `NeMoGymResponseCreateParamsNonStreaming`: `POST /v1/responses`. The fields and item types of
 * every gym server's Responses schema, and, as the original's pydantic model, no unknown field.
 */
export const MODEL_RESPONSES_PARAMS = z.strictObject(RESPONSES_REQUEST_FIELDS);

/** A validated Responses request. */
export type ModelResponsesParams = z.output<typeof MODEL_RESPONSES_PARAMS>;

/** `NeMoGymChatCompletionCreateParamsNonStreaming`: `POST /v1/chat/completions`. */
export const CHAT_COMPLETION_CREATE_PARAMS = z.looseObject({
  messages: z.array(z.looseObject({ role: z.string() })).min(1),
  model: z.string().nullish(),
  stream: z.literal(false).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

/** A validated Chat Completions request. */
export type ChatCompletionCreateParams = z.output<typeof CHAT_COMPLETION_CREATE_PARAMS>;
