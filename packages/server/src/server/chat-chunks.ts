/**
 * The `chat.completion.chunk` stream of a complete chat completion: what a model server sends for
 * `stream: true` on `/v1/chat/completions`, as the original does — the whole answer first, then
 * per choice a role delta, its reasoning, content and tool calls, and a delta with the finish
 * reason; a usage chunk when the caller asked for it (`stream_options.include_usage`).
 * @module
 */
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';

type Json = Record<string, unknown>;
type Choice = ChatCompletionChunk.Choice;

function choiceDeltas(choice: ChatCompletion.Choice, fallbackIndex: number): Choice[] {
  const index = typeof choice.index === 'number' ? choice.index : fallbackIndex;
  const message = (choice.message ?? {}) as unknown as Json;
  const deltas: Choice[] = [{ index, delta: { role: 'assistant' }, finish_reason: null }];
  const reasoning = message['reasoning_content'] ?? message['reasoning'];
  if (typeof reasoning === 'string' && reasoning !== '') deltas.push({ index, delta: { reasoning_content: reasoning } as Choice['delta'], finish_reason: null });
  if (typeof message['content'] === 'string' && message['content'] !== '') deltas.push({ index, delta: { content: message['content'] }, finish_reason: null });
  const toolCalls = Array.isArray(message['tool_calls']) ? (message['tool_calls'] as Json[]) : [];
  if (toolCalls.length > 0) {
    const calls = toolCalls.map((call, i) => {
      const fn = (call['function'] ?? {}) as Json;
      return { index: i, id: String(call['id'] ?? ''), type: 'function' as const, function: { name: String(fn['name'] ?? ''), arguments: typeof fn['arguments'] === 'string' ? fn['arguments'] : '' } };
    });
    deltas.push({ index, delta: { tool_calls: calls }, finish_reason: null });
  }
  deltas.push({ index, delta: {}, finish_reason: choice.finish_reason ?? 'stop' });
  return deltas;
}

/** The chunks of `completion`; with `includeUsage` a last chunk with no choices and the usage. */
export function chatCompletionChunks(completion: ChatCompletion, includeUsage: boolean): ChatCompletionChunk[] {
  const base = {
    id: completion.id,
    object: 'chat.completion.chunk' as const,
    created: completion.created,
    model: completion.model,
    ...(completion.system_fingerprint == null ? {} : { system_fingerprint: completion.system_fingerprint }),
  };
  const choices = Array.isArray(completion.choices) ? completion.choices : [];
  const chunks: ChatCompletionChunk[] = choices.flatMap((choice, i) => choiceDeltas(choice, i)).map((choice) => ({ ...base, choices: [choice] }));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: completion.usage ?? null });
  return chunks;
}
