/**
 * Responses create params → Chat Completions create params: input items
 * to messages, `instructions` as the leading system message, and the parameter mapping.
 * @module
 */
import { GymModelInputError } from './errors.js';
import { inputItemsToMessages } from './input-items.js';
import type { ModelResponsesParams } from '@gym/server';

type Json = Record<string, unknown>;

/** Responses fields that mean the same on the Chat side. */
const PASSED = ['model', 'temperature', 'top_p', 'metadata', 'user', 'service_tier', 'store', 'top_logprobs'] as const;

/** Options of {@link responsesToChat}. */
export interface ResponsesToChatOptions {
  /** Carry token-id fields of input items onto their assistant messages (training). */
  carryTokenIds: boolean;
}

/** Converts a Responses request into the Chat request vLLM will get (before preprocessing). */
export function responsesToChat(params: ModelResponsesParams, options: ResponsesToChatOptions): Json {
  if (params.previous_response_id != null) throw new GymModelInputError('previous_response_id: vllm_model keeps no response state; send the whole conversation as input.');
  if (params.prompt != null) throw new GymModelInputError('prompt: stored prompt templates are an OpenAI feature; send the prompt as input.');
  const chat: Json = { messages: withInstructions(inputItemsToMessages(params.input, { carryTokenIds: options.carryTokenIds }), params.instructions) };
  for (const key of PASSED) if (params[key] != null) chat[key] = params[key];
  if (params.max_output_tokens != null) chat['max_tokens'] = params.max_output_tokens;
  const effort = params.reasoning?.['effort'];
  if (effort != null) chat['reasoning_effort'] = effort;
  const format = responseFormat(params.text);
  if (format !== undefined) chat['response_format'] = format;
  const tools = params.tools ?? [];
  if (tools.length > 0) {
    chat['tools'] = tools.map((tool, i) => chatTool(tool, i));
    if (params.tool_choice != null) chat['tool_choice'] = chatToolChoice(params.tool_choice);
    if (params.parallel_tool_calls != null) chat['parallel_tool_calls'] = params.parallel_tool_calls;
  } else if (params.tool_choice != null && params.tool_choice !== 'auto' && params.tool_choice !== 'none') {
    throw new GymModelInputError(`tool_choice: ${JSON.stringify(params.tool_choice)} requires at least one tool.`);
  }
  return chat;
}

/**
 * Puts `instructions` in front as one system message, folded together with the leading
 * system/developer messages: many chat templates accept a single system message only, first.
 */
function withInstructions(messages: Json[], instructions: string | null | undefined): Json[] {
  if (instructions == null || instructions === '') return messages;
  const texts = [instructions];
  let i = 0;
  for (; i < messages.length; i++) {
    const m = messages[i]!;
    if (m['role'] !== 'system' && m['role'] !== 'developer') break;
    texts.push(textOf(m['content']));
  }
  return [{ role: 'system', content: texts.join('\n\n') }, ...messages.slice(i)];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((p) => String((p as Json)['text'] ?? '')).join('') : '';
}

/** `{type:function, name, description, parameters, strict}` → `{type:function, function:{…}}`. */
function chatTool(tool: Json, index: number): Json {
  if (tool['type'] !== 'function') {
    throw new GymModelInputError(`tools[${index}]: tool type '${String(tool['type'])}' has no Chat Completions equivalent; vllm_model accepts function tools.`);
  }
  const fn: Json = { name: tool['name'] };
  if (tool['description'] != null) fn['description'] = tool['description'];
  if (tool['parameters'] != null) fn['parameters'] = tool['parameters'];
  return { type: 'function', function: fn };
}

/** Responses `{type:function, name}` → Chat `{type:function, function:{name}}`; strings pass. */
function chatToolChoice(choice: string | Json): unknown {
  if (typeof choice === 'string') return choice;
  if (choice['type'] === 'function' && typeof choice['name'] === 'string') return { type: 'function', function: { name: choice['name'] } };
  throw new GymModelInputError(`tool_choice: ${JSON.stringify(choice)} has no Chat Completions equivalent.`);
}

/** Responses `text.format` → Chat `response_format` (`text` is the default and is left out). */
function responseFormat(text: Json | null | undefined): Json | undefined {
  const format = text?.['format'] as Json | undefined;
  if (format == null || format['type'] === 'text') return undefined;
  if (format['type'] === 'json_object') return { type: 'json_object' };
  if (format['type'] === 'json_schema') {
    const { type: _type, ...schema } = format;
    return { type: 'json_schema', json_schema: schema };
  }
  throw new GymModelInputError(`text.format: type '${String(format['type'])}' is not supported.`);
}
