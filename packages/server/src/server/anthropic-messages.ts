/**
 * The Anthropic Messages dialect of every model server (`POST /v1/messages`), as the original
 * serves it: the request becomes Responses create params, the server's own `responses` handler
 * answers, and the Response goes back as an Anthropic `message` — or, for `stream: true`, as the
 * Messages SSE events (`message_start`, `content_block_start` / `_delta` / `_stop` per block,
 * `message_delta`, `message_stop`), so harnesses that speak only Anthropic (the Claude Code CLI)
 * can drive any gym model. Text, images (base64), tool use and results, and thinking blocks map;
 * other blocks are refused with a 400 naming them.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { GymUserError } from '../errors.js';

type Json = Record<string, unknown>;

/** A Messages request the converters cannot express: answered 400 with the message as `detail`. */
export class GymMessagesInputError extends GymUserError {
  /** Read by the ingress: answer 400. */
  readonly statusCode = 400;

  constructor(message: string) {
    super('GYM_MESSAGES_UNSUPPORTED_INPUT', message);
  }
}

const BLOCK = z.looseObject({ type: z.string() });

/** The body of `POST /v1/messages`, checked as far as the conversion reads it; other fields pass. */
export const MESSAGES_REQUEST = z.looseObject({
  model: z.string().nullish(),
  max_tokens: z.int().nullish(),
  system: z.union([z.string(), z.array(BLOCK)]).nullish(),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(BLOCK)]) })),
  tools: z.array(z.looseObject({ name: z.string(), description: z.string().nullish(), input_schema: z.looseObject({}).nullish() })).nullish(),
  tool_choice: z.looseObject({ type: z.string(), name: z.string().optional() }).nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  stream: z.boolean().nullish(),
});

/** A validated Messages request. */
export type MessagesRequest = z.output<typeof MESSAGES_REQUEST>;

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function imagePart(block: Json): Json {
  const source = (block['source'] ?? {}) as Json;
  if (source['type'] !== 'base64') throw new GymMessagesInputError('An image block needs a base64 source (URL sources are not supported).');
  const mediaType = text(source['media_type']);
  if (!IMAGE_TYPES.has(mediaType)) throw new GymMessagesInputError(`Image media type '${mediaType}' is not supported; use one of ${[...IMAGE_TYPES].join(', ')}.`);
  return { type: 'input_image', image_url: `data:${mediaType};base64,${text(source['data'])}`, detail: 'auto' };
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Json[])
    .map((block) => {
      if (block['type'] !== 'text') throw new GymMessagesInputError(`A tool_result may hold text blocks only, not '${String(block['type'])}'.`);
      return text(block['text']);
    })
    .join('\n');
}

/** One Anthropic message's blocks as ordered Responses items: text and images group into a message; tool use, results and thinking are items of their own. */
function blocksToItems(role: string, blocks: Json[], items: Json[]): void {
  let parts: Json[] = [];
  const flush = (): void => {
    if (parts.length === 0) return;
    const only = parts.length === 1 && parts[0]!['type'] === 'input_text' ? parts[0]!['text'] : undefined;
    items.push({ type: 'message', role, content: only ?? parts });
    parts = [];
  };
  for (const block of blocks) {
    switch (block['type']) {
      case 'text':
        parts.push({ type: 'input_text', text: text(block['text']) });
        break;
      case 'image':
        parts.push(imagePart(block));
        break;
      case 'tool_use':
        flush();
        items.push({ type: 'function_call', id: text(block['id']), call_id: text(block['id']), name: text(block['name']), arguments: JSON.stringify(block['input'] ?? {}), status: 'completed' });
        break;
      case 'tool_result':
        flush();
        items.push({ type: 'function_call_output', call_id: text(block['tool_use_id']), output: toolResultText(block['content']) });
        break;
      case 'thinking':
        flush();
        items.push({
          type: 'reasoning',
          id: `rs_${randomBytes(12).toString('hex')}`,
          summary: [{ type: 'summary_text', text: text(block['thinking']) }],
          ...(typeof block['signature'] === 'string' && block['signature'] !== '' ? { encrypted_content: block['signature'] } : {}),
        });
        break;
      default:
        throw new GymMessagesInputError(`Content blocks of type '${String(block['type'])}' are not supported on /v1/messages.`);
    }
  }
  flush();
}

function toolChoiceOf(choice: MessagesRequest['tool_choice']): unknown {
  if (choice == null) return undefined;
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'none':
      return 'none';
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', name: choice.name };
    default:
      throw new GymMessagesInputError(`tool_choice of type '${choice.type}' is not supported.`);
  }
}

/** The Responses create params of a Messages request (without `stream`). */
export function messagesToResponsesRequest(body: MessagesRequest): Json {
  const input: Json[] = [];
  for (const message of body.messages) {
    if (typeof message.content === 'string') input.push({ type: 'message', role: message.role, content: message.content });
    else blocksToItems(message.role, message.content, input);
  }
  const params: Json = { input };
  const system =
    typeof body.system === 'string'
      ? body.system
      : (body.system ?? [])
          .filter((b) => b.type === 'text' && text(b['text']) !== '')
          .map((b) => text(b['text']))
          .join('\n');
  if (system !== '') params['instructions'] = system;
  if (body.model != null) params['model'] = body.model;
  if (body.max_tokens != null) params['max_output_tokens'] = body.max_tokens;
  if (body.temperature != null) params['temperature'] = body.temperature;
  if (body.top_p != null) params['top_p'] = body.top_p;
  if (body.tools != null && body.tools.length > 0) {
    params['tools'] = body.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description ?? null,
      parameters: tool.input_schema ?? { type: 'object', properties: {} },
      strict: false,
    }));
  }
  const toolChoice = toolChoiceOf(body.tool_choice);
  if (toolChoice !== undefined) params['tool_choice'] = toolChoice;
  return params;
}

function toolInput(args: unknown): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof args === 'string' && args !== '' ? args : '{}');
  } catch {
    parsed = undefined;
  }
  // a model's broken arguments still reach the caller, who can see them and retry
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { _raw_arguments: args };
  return parsed as Json;
}

/** The Anthropic `message` of a Response; `model` names it (the request's, else the response's). */
export function responseToAnthropicMessage(response: Json, model: string): Json {
  const content: Json[] = [];
  let toolUse = false;
  for (const item of (Array.isArray(response['output']) ? response['output'] : []) as Json[]) {
    const type = item['type'] ?? 'message';
    if (type === 'message') {
      for (const part of (Array.isArray(item['content']) ? item['content'] : []) as Json[]) {
        if (part['type'] === 'output_text') content.push({ type: 'text', text: text(part['text']) });
        else if (part['type'] === 'refusal') content.push({ type: 'text', text: text(part['refusal']) });
      }
    } else if (type === 'reasoning') {
      for (const summary of (Array.isArray(item['summary']) ? item['summary'] : []) as Json[]) {
        content.push({ type: 'thinking', thinking: text(summary['text']), signature: text(item['encrypted_content']) });
      }
    } else if (type === 'function_call') {
      content.push({ type: 'tool_use', id: text(item['call_id']), name: text(item['name']), input: toolInput(item['arguments']) });
      toolUse = true;
    }
  }
  const reason = (response['incomplete_details'] as Json | null | undefined)?.['reason'];
  const stopReason = reason === 'max_output_tokens' ? 'max_tokens' : reason === 'content_filter' ? 'refusal' : toolUse ? 'tool_use' : 'end_turn';
  const usage = (response['usage'] ?? {}) as Json;
  return {
    id: `msg_${randomBytes(16).toString('hex')}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: typeof usage['input_tokens'] === 'number' ? usage['input_tokens'] : 0, output_tokens: typeof usage['output_tokens'] === 'number' ? usage['output_tokens'] : 0 },
  };
}

function emptyBlock(block: Json): Json {
  if (block['type'] === 'text') return { type: 'text', text: '' };
  if (block['type'] === 'thinking') return { type: 'thinking', thinking: '', signature: '' };
  return { type: 'tool_use', id: block['id'], name: block['name'], input: {} };
}

function blockDeltas(block: Json): Json[] {
  if (block['type'] === 'text') return [{ type: 'text_delta', text: block['text'] }];
  if (block['type'] === 'thinking') {
    const deltas: Json[] = [{ type: 'thinking_delta', thinking: block['thinking'] }];
    if (block['signature'] !== '') deltas.push({ type: 'signature_delta', signature: block['signature'] });
    return deltas;
  }
  return [{ type: 'input_json_delta', partial_json: JSON.stringify(block['input']) }];
}

/** The Messages streaming events of a complete Anthropic `message`. */
export function anthropicMessageEvents(message: Json): Array<{ type: string } & Json> {
  const content = message['content'] as Json[];
  const usage = message['usage'] as Json;
  const events: Array<{ type: string } & Json> = [{ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 0 } } }];
  content.forEach((block, index) => {
    events.push({ type: 'content_block_start', index, content_block: emptyBlock(block) });
    for (const delta of blockDeltas(block)) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: message['stop_reason'], stop_sequence: null }, usage: { output_tokens: usage['output_tokens'] } });
  events.push({ type: 'message_stop' });
  return events;
}
