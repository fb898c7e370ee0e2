/**
 * Reply bodies in the shapes vLLM's OpenAI server returns (0.8–0.16), for the conversion tests.
 * Each builder returns a fresh object: the code under test mutates replies in place.
 */

type Json = Record<string, unknown>;

function completion(message: Json, extra: { finish_reason?: string; choice?: Json; top?: Json } = {}): Json {
  return {
    id: 'chatcmpl-b7f3a1c2d4e5',
    object: 'chat.completion',
    created: 1_751_000_000,
    model: 'Qwen/Qwen3-8B',
    choices: [{ index: 0, message, logprobs: null, finish_reason: extra.finish_reason ?? 'stop', stop_reason: null, ...extra.choice }],
    usage: { prompt_tokens: 231, total_tokens: 262, completion_tokens: 31, prompt_tokens_details: { cached_tokens: 192 }, completion_tokens_details: { reasoning_tokens: 18 } },
    prompt_logprobs: null,
    kv_transfer_params: null,
    ...extra.top,
  };
}

/** A plain answer. */
export const plainText = (): Json => completion({ role: 'assistant', content: 'Paris is the capital of France.', refusal: null, tool_calls: [], reasoning_content: null });

/** A tool call (hermes parser), no text. */
export const toolCall = (): Json =>
  completion(
    {
      role: 'assistant',
      content: null,
      refusal: null,
      reasoning_content: null,
      tool_calls: [{ id: 'chatcmpl-tool-5f2e9d', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }],
    },
    { finish_reason: 'tool_calls' },
  );

/** Reasoning from a reasoning parser (`reasoning_content`, vLLM < 0.16) plus a tool call and text. */
export const reasoningContent = (): Json =>
  completion(
    {
      role: 'assistant',
      content: 'Let me check.',
      reasoning_content: 'The user wants the weather; call the tool.',
      tool_calls: [{ id: 'chatcmpl-tool-a1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
    },
    { finish_reason: 'tool_calls' },
  );

/** Reasoning in the `reasoning` field (vLLM ≥ 0.16). */
export const reasoningField = (): Json => completion({ role: 'assistant', content: 'It is 4.', reasoning: '2 + 2 = 4', tool_calls: [] });

/** Reasoning left inline as `<think>` (no parser on the vLLM side). */
export const thinkTags = (): Json => completion({ role: 'assistant', content: '<think>Short question.</think>Yes.', tool_calls: [] });

/** Cut off by max_tokens. */
export const lengthCutOff = (): Json => completion({ role: 'assistant', content: 'The history of Rome begins', tool_calls: [] }, { finish_reason: 'length' });

/** Stopped by a content filter. */
export const contentFilter = (): Json => completion({ role: 'assistant', content: '', tool_calls: [] }, { finish_reason: 'content_filter' });

const IDS = [785, 6722, 315, 9625, 374];
const LOGPROBS = [-0.0012, -0.31, -0.00004, -1.2, -0.05];
const PROMPT = [151644, 872, 198, 3838, 374];

/** Source (c): logprobs with `token_id:<n>` tokens (return_tokens_as_token_ids). */
export const logprobTokens = (ids = IDS): Json =>
  completion(
    { role: 'assistant', content: 'The capital of France is', tool_calls: [] },
    { choice: { logprobs: { content: ids.map((id, i) => ({ token: `token_id:${id}`, logprob: LOGPROBS[i] ?? -1, bytes: [1], top_logprobs: [] })) } } },
  );

/** Sources (b) + (c): `prompt_token_ids` at the top, `token_ids` on the choice (return_token_ids). */
export const responseTokenIds = (generation = IDS): Json => {
  const body = logprobTokens();
  body['prompt_token_ids'] = PROMPT;
  (body['choices'] as Json[])[0]!['token_ids'] = generation;
  return body;
};

/** Source (a): a complete bundle on the message (NeMo RL's patched server). */
export const messageBundle = (overrides: Json = {}): Json =>
  completion({ role: 'assistant', content: 'The capital of France is', tool_calls: [], prompt_token_ids: PROMPT, generation_token_ids: IDS, generation_log_probs: LOGPROBS, ...overrides });

/** The ids the fixtures carry. */
export const TOKENS = { IDS, LOGPROBS, PROMPT } as const;

/** vLLM's 400 for a prompt over the context length. */
export const CONTEXT_OVERFLOW_BODY = {
  object: 'error',
  message: "This model's maximum context length is 32768 tokens. However, you requested 32818 tokens in the messages, Please reduce the length of the messages. None",
  type: 'BadRequestError',
  param: null,
  code: 400,
};
