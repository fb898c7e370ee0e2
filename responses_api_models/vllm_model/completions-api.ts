/**
 * `use_completions_api: true`: a Chat request served through vLLM's `/v1/completions` (base
 * models, caller-rendered prompts), as the original does it. The prompt is the model's chat
 * template rendered here (`render_chat_template: true`), or else the text of one user message
 * (after at most one system message); the completion's text comes back as one assistant message,
 * so both routes answer exactly as on the chat path. `<think>` blocks stay in the text, where
 * the Responses conversion finds them.
 * @module
 */
import { GymModelInputError, GymModelReplyError } from './errors.js';
import { metadataJson } from './params.js';
import type { ChatTemplate } from './chat-template.js';
import type { VllmModelConfig } from './config.js';

type Json = Record<string, unknown>;

/** Chat request fields that `/v1/completions` takes under the same name. */
const SHARED_FIELDS = ['max_tokens', 'temperature', 'top_p', 'n', 'seed', 'stop', 'frequency_penalty', 'presence_penalty', 'logit_bias', 'response_format', 'user'] as const;

/** The config fields the completions path reads. */
export type CompletionsConfig = Pick<VllmModelConfig, 'name' | 'model' | 'chatTemplateKwargs' | 'extraBody' | 'samplingOverrides' | 'returnTokenIdInformation'>;

/** The text of a message's content: a string, or text parts joined; anything else is refused (`/v1/completions` is text-only). */
function contentText(message: Json): string {
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: Json) => {
        if (part === null || typeof part !== 'object' || (part['type'] !== 'text' && part['type'] !== 'input_text')) {
          throw new GymModelInputError(
            `use_completions_api: only text content reaches /v1/completions; got a '${String((part as Json | null)?.['type'])}' part in a ${String(message['role'])} message.`,
          );
        }
        return typeof part['text'] === 'string' ? part['text'] : '';
      })
      .join('');
  }
  throw new GymModelInputError(`use_completions_api: a ${String(message['role'])} message needs string or text-part content.`);
}

/** The prompt without a template: one user message, optionally after one system message, joined by a blank line. */
export function rawPrompt(messages: Json[]): string {
  const roles = messages.map((m) => m['role']);
  const oneUser = roles.length === 1 && roles[0] === 'user';
  const systemUser = roles.length === 2 && roles[0] === 'system' && roles[1] === 'user';
  if (!oneUser && !systemUser) {
    throw new GymModelInputError(
      `use_completions_api without render_chat_template takes one user message, optionally after one system message; got [${roles.join(', ')}]. Set render_chat_template: true (with the model's tokenizer) for conversations.`,
    );
  }
  return messages.map(contentText).join('\n\n');
}

/** The prompt of Chat request `body`: rendered by `template` when there is one, else {@link rawPrompt}. */
export function promptOf(body: Json, config: CompletionsConfig, template: ChatTemplate | undefined): string {
  const messages = (body['messages'] ?? []) as Json[];
  const tools = Array.isArray(body['tools']) && body['tools'].length > 0 ? (body['tools'] as Json[]) : undefined;
  const metadata = (body['metadata'] ?? {}) as Record<string, string>;
  for (const key of ['audio_data', 'audio_path', 'audio_paths']) {
    if (metadata[key]) throw new GymModelInputError(`metadata.${key}: audio is not supported with use_completions_api (/v1/completions is text-only).`);
  }
  if (template === undefined) {
    if (tools !== undefined)
      throw new GymModelInputError('tools need render_chat_template: true with use_completions_api (the chat template renders them into the prompt), or use_completions_api: false.');
    return rawPrompt(messages);
  }
  for (const message of messages) if (message['content'] != null) contentText(message);
  const kwargs = { ...config.chatTemplateKwargs, ...metadataJson(metadata, 'chat_template_kwargs') };
  return template.render({ messages, tools, kwargs });
}

/** The `/v1/completions` body for Chat request `body` and its rendered `prompt`. */
export function completionRequest(body: Json, prompt: string, config: CompletionsConfig): Json {
  let request: Json = { model: config.model, prompt };
  for (const key of SHARED_FIELDS) if (body[key] !== undefined) request[key] = body[key];
  if (request['max_tokens'] === undefined && body['max_completion_tokens'] !== undefined) request['max_tokens'] = body['max_completion_tokens'];
  // /v1/completions' logprobs is a count (top-N), not a flag
  if (body['top_logprobs'] != null) request['logprobs'] = body['top_logprobs'];
  else if (body['logprobs'] === true || config.returnTokenIdInformation) request['logprobs'] = 0;
  if (config.extraBody) request = { ...structuredClone(config.extraBody), ...request };
  if (config.returnTokenIdInformation) Object.assign(request, { return_token_ids: true, return_tokens_as_token_ids: true });
  if (config.samplingOverrides) Object.assign(request, config.samplingOverrides);
  if (config.returnTokenIdInformation && request['n'] != null && request['n'] !== 1) {
    throw new GymModelInputError('n: training mode (return_token_id_information) needs n = 1.');
  }
  return request;
}

function ids(value: unknown, what: string): number[] {
  const list: unknown[] | undefined = Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'string' ? Number(v.replace(/^token_id:/, '')) : v)) : undefined;
  if (list === undefined || !list.every((n): n is number => Number.isInteger(n))) throw new GymModelReplyError(`vLLM's /v1/completions answer has no usable ${what}.`);
  return list;
}

/**
 * The chat completion a `/v1/completions` answer stands for: its first choice's text as the
 * assistant message, and in training mode the token ids and logprobs on it. `tokenize` gives the
 * prompt ids when vLLM did not return them.
 */
export async function completionToChat(completion: Json, config: CompletionsConfig, tokenize: () => Promise<Json>): Promise<Json> {
  const choice = (completion['choices'] as Json[] | undefined)?.[0];
  if (choice == null || typeof choice !== 'object') throw new GymModelReplyError(`vLLM's /v1/completions answered without choices. Check that base_url points at a vLLM /v1 endpoint.`);
  const message: Json = { role: 'assistant', content: typeof choice['text'] === 'string' ? choice['text'] : '', tool_calls: null };
  if (config.returnTokenIdInformation) {
    const logprobs = choice['logprobs'] as Json | null | undefined;
    if (!Array.isArray(logprobs?.['token_logprobs'])) {
      throw new GymModelReplyError(`'${config.name}' asked vLLM for per-token logprobs (return_token_id_information), but the /v1/completions answer has none.`);
    }
    const generation = choice['token_ids'] ?? logprobs['tokens'];
    const prompt = choice['prompt_token_ids'] ?? completion['prompt_token_ids'] ?? (await tokenize())['tokens'];
    Object.assign(message, {
      prompt_token_ids: ids(prompt, 'prompt token ids'),
      generation_token_ids: ids(generation, 'generation token ids'),
      generation_log_probs: logprobs['token_logprobs'],
    });
  }
  const chat: Json = {
    id: completion['id'] ?? 'chatcmpl-completions',
    object: 'chat.completion',
    created: completion['created'] ?? Math.floor(Date.now() / 1000),
    model: completion['model'] ?? config.model,
    choices: [{ index: choice['index'] ?? 0, finish_reason: choice['finish_reason'] ?? 'stop', logprobs: null, message }],
  };
  if (completion['usage'] != null) chat['usage'] = completion['usage'];
  return chat;
}
