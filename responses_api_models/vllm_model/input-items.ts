/**
 * Responses input items → Chat messages. Consecutive reasoning, assistant
 * message and function_call items form one assistant message: reasoning as `<think>` text in front,
 * function calls as `tool_calls`. The buffer is flushed by the next user, system, developer or
 * tool item, and at the end.
 * @module
 */
import { GymModelInputError } from './errors.js';
import { wrapThink } from './think-tags.js';

type Json = Record<string, unknown>;

/** The training fields an item may carry. */
export const TOKEN_FIELDS = ['prompt_token_ids', 'generation_token_ids', 'generation_log_probs'] as const;

/** Options of {@link inputItemsToMessages}. */
export interface InputItemsOptions {
  /** Carry an item's token-id fields onto the assistant message it becomes part of. */
  carryTokenIds: boolean;
}

class AssistantBuffer {
  content = '';
  toolCalls: Json[] = [];
  tokens: Json | undefined;

  flush(messages: Json[]): void {
    if (this.content !== '' || this.toolCalls.length > 0) {
      const message: Json = { role: 'assistant', content: this.content === '' ? null : this.content };
      if (this.toolCalls.length > 0) message['tool_calls'] = this.toolCalls;
      messages.push(this.tokens === undefined ? message : { ...message, ...this.tokens });
    }
    // ids belong to the turn they came with, never to a later assistant message
    this.content = '';
    this.toolCalls = [];
    this.tokens = undefined;
  }
}

/** Converts Responses `input` (a string or items) into Chat `messages`. */
export function inputItemsToMessages(input: string | readonly Json[], options: InputItemsOptions): Json[] {
  if (typeof input === 'string') return [{ role: 'user', content: [{ type: 'text', text: input }] }];
  const messages: Json[] = [];
  const buffer = new AssistantBuffer();
  input.forEach((item, index) => {
    const at = `input[${index}]`;
    const type = item['type'] ?? (item['role'] !== undefined ? 'message' : undefined);
    switch (type) {
      case 'message':
        addMessage(item, at, messages, buffer);
        break;
      case 'reasoning':
        buffer.content += wrapThink(summaryTexts(item, at));
        break;
      case 'function_call':
        buffer.toolCalls.push({ id: requireString(item, 'call_id', at), type: 'function', function: { name: requireString(item, 'name', at), arguments: requireString(item, 'arguments', at) } });
        break;
      case 'function_call_output':
        buffer.flush(messages);
        messages.push({ role: 'tool', tool_call_id: requireString(item, 'call_id', at), content: toolOutput(item['output'], at) });
        break;
      default:
        throw new GymModelInputError(`${at}: item type '${String(type)}' has no Chat Completions equivalent; vllm_model accepts message, reasoning, function_call and function_call_output items.`);
    }
    if (options.carryTokenIds && item['prompt_token_ids'] != null) buffer.tokens = tokenFieldsOf(item, at);
  });
  buffer.flush(messages);
  return messages;
}

function addMessage(item: Json, at: string, messages: Json[], buffer: AssistantBuffer): void {
  const role = item['role'];
  const content = item['content'];
  if (role === 'assistant') {
    buffer.content += assistantText(content, at);
    return;
  }
  if (role !== 'user' && role !== 'system' && role !== 'developer') {
    throw new GymModelInputError(`${at}.role: '${String(role)}' is not a message role (user, assistant, system, developer).`);
  }
  buffer.flush(messages);
  messages.push({ role, content: Array.isArray(content) ? content.map((part, i) => inputPart(part as Json, `${at}.content[${i}]`)) : requireText(content, `${at}.content`) });
}

/** Responses input content part → Chat content part. */
function inputPart(part: Json, at: string): Json {
  switch (part['type']) {
    case 'input_text':
      return { type: 'text', text: requireText(part['text'], `${at}.text`) };
    case 'input_image':
      return { type: 'image_url', image_url: { url: part['image_url'] ?? '', detail: part['detail'] ?? 'auto' } };
    case 'input_video':
      return { type: 'video_url', video_url: { url: part['video_url'] ?? part['video'] ?? '' } };
    default:
      throw new GymModelInputError(`${at}: content part type '${String(part['type'])}' is not supported by vllm_model (input_text, input_image, input_video).`);
  }
}

function assistantText(content: unknown, at: string): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof (part as Json)?.['text'] === 'string' ? ((part as Json)['text'] as string) : '')).join('');
  throw new GymModelInputError(`${at}.content: an assistant message needs a string or a list of output_text parts.`);
}

function summaryTexts(item: Json, at: string): string[] {
  const summary = item['summary'] ?? [];
  if (!Array.isArray(summary)) throw new GymModelInputError(`${at}.summary: expected a list of summary_text parts.`);
  return summary.map((part, i) => requireText((part as Json)?.['text'], `${at}.summary[${i}].text`));
}

function toolOutput(output: unknown, at: string): unknown {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((part, i) => inputPart(part as Json, `${at}.output[${i}]`));
  throw new GymModelInputError(`${at}.output: expected a string or a list of content parts.`);
}

function tokenFieldsOf(item: Json, at: string): Json {
  const fields: Json = {};
  for (const key of TOKEN_FIELDS) {
    if (!Array.isArray(item[key])) throw new GymModelInputError(`${at}.${key}: the training fields ${TOKEN_FIELDS.join(', ')} must be lists and appear together.`);
    fields[key] = item[key];
  }
  if (item['routed_experts'] != null) fields['routed_experts'] = item['routed_experts'];
  return fields;
}

function requireString(item: Json, key: string, at: string): string {
  return requireText(item[key], `${at}.${key}`);
}

function requireText(value: unknown, at: string): string {
  if (typeof value !== 'string') throw new GymModelInputError(`${at}: expected a string.`);
  return value;
}
