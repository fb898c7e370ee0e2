/**
 * The simulator behind `POST /v1/chat/completions`: the same policy over chat messages.
 * @module
 */
import { newId } from './ids.js';
import { decide, estimateTokens } from './policy.js';
import { replyStamp } from './reply-stamp.js';
import { textOf } from './text.js';
import type { PolicyInput } from './policy.js';
import type { JsonSchema } from './schema-arguments.js';

type Item = Record<string, unknown>;

/** Reads the policy's view of a chat completions request. */
export function policyInputFromChat(body: Item): PolicyInput {
  const messages = (body['messages'] as Item[] | undefined) ?? [];
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m['role'] === 'user') lastUser = i;
  });
  const toolMessages = messages.slice(lastUser + 1).filter((m) => m['role'] === 'tool');
  const tools = ((body['tools'] as Item[] | undefined) ?? [])
    .map((t) => t['function'] as Item | undefined)
    .filter((f): f is Item => typeof f?.['name'] === 'string')
    .map((f) => ({ name: f['name'] as string, parameters: f['parameters'] as JsonSchema | undefined }));
  const choice = body['tool_choice'];
  const forced = typeof choice === 'object' && choice !== null ? (choice as { function?: { name?: string } }).function?.name : undefined;
  return {
    lastUserText: lastUser >= 0 ? textOf(messages[lastUser]!['content']) : '',
    toolOutput: toolMessages.length > 0 ? textOf(toolMessages.at(-1)!['content']) : undefined,
    tools,
    ...(choice === 'none' ? { toolChoice: 'none' } : forced === undefined ? {} : { toolChoice: forced }),
  };
}

/** Builds the `ChatCompletion` for `body`. */
export function simulateChatCompletion(body: Item, model: string): { completion: Item; outputTokens: number } {
  const decision = decide(policyInputFromChat(body));
  const message: Item =
    decision.kind === 'tool_call'
      ? { role: 'assistant', content: null, tool_calls: [{ id: newId('call_'), type: 'function', function: { name: decision.name, arguments: JSON.stringify(decision.arguments) } }] }
      : { role: 'assistant', content: decision.text };
  const outputText = decision.kind === 'tool_call' ? JSON.stringify(decision.arguments) : decision.text;
  const promptTokens = estimateTokens(JSON.stringify(body['messages'] ?? []));
  const outputTokens = estimateTokens(outputText);
  const stamp = replyStamp(body, model);
  const completion: Item = {
    id: newId('chatcmpl-'),
    object: 'chat.completion',
    created: stamp.created,
    model: stamp.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: decision.kind === 'tool_call' ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: promptTokens, completion_tokens: outputTokens, total_tokens: promptTokens + outputTokens },
  };
  return { completion, outputTokens };
}
