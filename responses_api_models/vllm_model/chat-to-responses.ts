/**
 * Chat completion → Responses `Response`: `<think>` becomes a reasoning
 * item, the rest an assistant message, each tool call a function_call; token ids go onto the last
 * output item; `finish_reason` length / content_filter make the response incomplete.
 * @module
 */
import { newId } from './ids.js';
import { splitThink } from './think-tags.js';
import type { ModelResponsesParams } from '@gym/server';

type Json = Record<string, unknown>;

/** Options of {@link chatToResponse}. */
export interface ChatToResponseOptions {
  /** Read `<think>` blocks in the content as reasoning. */
  usesReasoningParser: boolean;
  /** Put the message's token-id fields onto the last output item. */
  returnTokenIdInformation: boolean;
  /** The model name the response reports. */
  model: string;
}

const INCOMPLETE: Readonly<Record<string, string>> = { length: 'max_output_tokens', content_filter: 'content_filter' };
const TRAINING_FIELDS = ['prompt_token_ids', 'generation_token_ids', 'generation_log_probs', 'routed_experts'] as const;

/** Output items of one assistant chat message. */
export function assistantMessageToItems(message: Json, options: Pick<ChatToResponseOptions, 'usesReasoningParser' | 'returnTokenIdInformation'>): Json[] {
  const output: Json[] = [];
  let content = typeof message['content'] === 'string' ? message['content'] : '';
  if (options.usesReasoningParser) {
    const split = splitThink(content);
    content = split.content;
    if (split.reasoning.length > 0) {
      output.push({ id: newId('rs_'), type: 'reasoning', summary: split.reasoning.map((text) => ({ type: 'summary_text', text })), status: 'completed' });
    }
  }
  const toolCalls = Array.isArray(message['tool_calls']) ? (message['tool_calls'] as Json[]) : [];
  const refusal = typeof message['refusal'] === 'string' && message['refusal'] !== '' ? message['refusal'] : undefined;
  if (content !== '' || refusal !== undefined || (output.length === 0 && toolCalls.length === 0)) {
    const parts: Json[] = [];
    if (content !== '' || refusal === undefined) parts.push({ type: 'output_text', text: content, annotations: [] });
    if (refusal !== undefined) parts.push({ type: 'refusal', refusal });
    output.push({ id: newId('msg_'), type: 'message', role: 'assistant', status: 'completed', content: parts });
  }
  for (const call of toolCalls) {
    const fn = (call['function'] ?? {}) as Json;
    output.push({ type: 'function_call', id: call['id'], call_id: call['id'], name: fn['name'], arguments: fn['arguments'] ?? '', status: 'completed' });
  }
  if (options.returnTokenIdInformation && message['prompt_token_ids'] != null) {
    const last = output.at(-1)!;
    for (const key of TRAINING_FIELDS) if (message[key] != null) last[key] = message[key];
  }
  return output;
}

/** Chat usage → Responses usage (`null` when vLLM reported none, e.g. a softened overflow). */
export function usageToResponses(usage: Json | null | undefined): Json | null {
  if (usage == null) return null;
  const input = Number(usage['prompt_tokens'] ?? 0);
  const output = Number(usage['completion_tokens'] ?? 0);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: Number((usage['prompt_tokens_details'] as Json | null)?.['cached_tokens'] ?? 0) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: Number((usage['completion_tokens_details'] as Json | null)?.['reasoning_tokens'] ?? 0) },
    total_tokens: Number(usage['total_tokens'] ?? input + output),
  };
}

/** Builds the `Response` for `request` from `completion`, echoing the request's parameters. */
export function chatToResponse(completion: Json, request: ModelResponsesParams, options: ChatToResponseOptions): Json {
  const choice = ((completion['choices'] as Json[] | undefined) ?? [])[0] ?? {};
  const reason = INCOMPLETE[String(choice['finish_reason'])];
  return {
    id: newId('resp_'),
    object: 'response',
    created_at: typeof completion['created'] === 'number' ? completion['created'] : Math.floor(Date.now() / 1000),
    model: options.model,
    status: reason === undefined ? 'completed' : 'incomplete',
    error: null,
    incomplete_details: reason === undefined ? null : { reason },
    output: assistantMessageToItems((choice['message'] ?? {}) as Json, options),
    usage: usageToResponses(completion['usage'] as Json | undefined),
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: request.max_tool_calls ?? null,
    metadata: request.metadata ?? {},
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: request.reasoning ?? null,
    service_tier: request.service_tier ?? null,
    store: request.store ?? null,
    temperature: request.temperature ?? null,
    text: request.text ?? { format: { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_logprobs: request.top_logprobs ?? null,
    top_p: request.top_p ?? null,
    truncation: request.truncation ?? 'disabled',
    user: request.user ?? null,
    background: request.background ?? null,
  };
}
