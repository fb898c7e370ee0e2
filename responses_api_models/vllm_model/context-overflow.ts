/**
 * A prompt longer than the model's context is not a failure: vLLM's 400
 * "maximum context length" / "max_tokens" answer becomes an empty assistant message with
 * `finish_reason: "length"`, so the rollout ends as incomplete instead of failing.
 * @module
 */
import { isHttpStatusError } from '@gym/server';
import { newId } from './ids.js';

type Json = Record<string, unknown>;

/** True for vLLM's "prompt too long" answer: status 400 whose body mentions the context length or max_tokens. */
export function isContextOverflow(error: unknown): boolean {
  return isHttpStatusError(error) && error.status === 400 && (error.bodyText.includes('context length') || error.bodyText.includes('max_tokens'));
}

/** A chat completion with one empty assistant message and the given finish reason (no usage). */
export function emptyChatCompletion(model: string, finishReason: 'length' | 'content_filter'): Json {
  return {
    id: newId('chatcmpl-'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, finish_reason: finishReason, logprobs: null, message: { role: 'assistant', content: null, tool_calls: null } }],
  };
}
