/**
 * Body schemas of the two model routes. The Responses request forbids unknown
 * top-level fields, as the original's pydantic model does; items are checked by the converters.
 * The Chat request is open: it accepts every OpenAI and vLLM chat parameter.
 * @module
 */
import { z } from 'zod';

const OBJECT = z.looseObject({});

/** `NeMoGymResponseCreateParamsNonStreaming`: `POST /v1/responses`. */
export const RESPONSES_CREATE_PARAMS = z.strictObject({
  input: z.union([z.string(), z.array(OBJECT)]),
  instructions: z.string().nullish(),
  max_output_tokens: z.int().nullish(),
  max_tool_calls: z.int().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  model: z.string().nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  previous_response_id: z.string().nullish(),
  prompt: OBJECT.nullish(),
  reasoning: OBJECT.nullish(),
  service_tier: z.string().nullish(),
  store: z.boolean().nullish(),
  temperature: z.number().nullish(),
  text: OBJECT.nullish(),
  tool_choice: z.union([z.string(), OBJECT]).nullish(),
  tools: z.array(OBJECT).nullish(),
  top_logprobs: z.int().nullish(),
  top_p: z.number().nullish(),
  truncation: z.string().nullish(),
  user: z.string().nullish(),
  background: z.boolean().nullish(),
  include: z.array(z.string()).nullish(),
  // streaming is answered by the original as synthesized SSE; gym does not stream yet
  stream: z.literal(false).nullish(),
});

/** A validated Responses request. */
export type ResponsesCreateParams = z.output<typeof RESPONSES_CREATE_PARAMS>;

/** `NeMoGymChatCompletionCreateParamsNonStreaming`: `POST /v1/chat/completions`. */
export const CHAT_COMPLETION_CREATE_PARAMS = z.looseObject({
  messages: z.array(z.looseObject({ role: z.string() })).min(1),
  model: z.string().nullish(),
  stream: z.literal(false).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

/** A validated Chat Completions request. */
export type ChatCompletionCreateParams = z.output<typeof CHAT_COMPLETION_CREATE_PARAMS>;
