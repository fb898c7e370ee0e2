/**
 * The simulator behind `POST /v1/responses`: Responses input items in, a `Response` object out.
 * @module
 */
import { newId } from './ids.js';
import { decide, estimateTokens } from './policy.js';
import { replyStamp } from './reply-stamp.js';
import { textOf } from './text.js';
import type { PolicyDecision, PolicyInput } from './policy.js';
import type { JsonSchema } from './schema-arguments.js';

type Item = Record<string, unknown>;

/** Reads the policy's view of a Responses request. */
export function policyInputFromResponses(body: Item): PolicyInput {
  const items: Item[] = typeof body['input'] === 'string' ? [{ role: 'user', content: body['input'] }] : ((body['input'] as Item[] | undefined) ?? []);
  let lastUser = -1;
  items.forEach((item, i) => {
    if (item['role'] === 'user') lastUser = i;
  });
  const toolOutputs = items.slice(lastUser + 1).filter((item) => item['type'] === 'function_call_output');
  const last = toolOutputs.at(-1);
  const tools = ((body['tools'] as Item[] | undefined) ?? [])
    .filter((t) => t['type'] === 'function' && typeof t['name'] === 'string')
    .map((t) => ({ name: t['name'] as string, parameters: t['parameters'] as JsonSchema | undefined }));
  const choice = body['tool_choice'];
  const toolChoice = choice === 'none' ? 'none' : typeof choice === 'object' && choice !== null ? ((choice as Item)['name'] as string | undefined) : undefined;
  return {
    lastUserText: lastUser >= 0 ? textOf(items[lastUser]!['content']) : '',
    toolOutput: last === undefined ? undefined : textOf(last['output']),
    tools,
    ...(toolChoice === undefined ? {} : { toolChoice }),
  };
}

function outputItem(decision: PolicyDecision, text: string): Item {
  if (decision.kind === 'tool_call') {
    return { type: 'function_call', id: newId('fc_'), call_id: newId('call_'), name: decision.name, arguments: JSON.stringify(decision.arguments), status: 'completed' };
  }
  return { type: 'message', id: newId('msg_'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
}

/** Builds the `Response` for `body` as decided by the policy; `model` names the simulator. */
export function simulateResponse(body: Item, model: string): { response: Item; outputTokens: number } {
  const decision = decide(policyInputFromResponses(body));
  let text = decision.kind === 'text' ? decision.text : JSON.stringify(decision.arguments);
  const maxTokens = typeof body['max_output_tokens'] === 'number' ? body['max_output_tokens'] : Infinity;
  const truncated = decision.kind === 'text' && estimateTokens(text) > maxTokens;
  if (truncated) text = text.slice(0, Math.max(1, maxTokens * 4));
  const inputTokens = estimateTokens(JSON.stringify(body['input'] ?? '') + String(body['instructions'] ?? ''));
  const outputTokens = estimateTokens(text);
  const stamp = replyStamp(body, model);
  const response: Item = {
    id: newId('resp_'),
    object: 'response',
    created_at: stamp.created,
    model: stamp.model,
    status: truncated ? 'incomplete' : 'completed',
    incomplete_details: truncated ? { reason: 'max_output_tokens' } : null,
    error: null,
    output: [outputItem(decision, text)],
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + outputTokens,
    },
    instructions: body['instructions'] ?? null,
    metadata: body['metadata'] ?? {},
    parallel_tool_calls: body['parallel_tool_calls'] ?? true,
    temperature: body['temperature'] ?? null,
    top_p: body['top_p'] ?? null,
    tool_choice: body['tool_choice'] ?? 'auto',
    tools: body['tools'] ?? [],
    max_output_tokens: body['max_output_tokens'] ?? null,
    text: { format: { type: 'text' } },
    truncation: 'disabled',
  };
  return { response, outputTokens };
}
