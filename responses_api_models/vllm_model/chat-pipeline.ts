/**
 * One call to vLLM's `/chat/completions`, behind both of the server's
 * routes: preprocess, pick the session's replica, send, soften a context overflow, fold reasoning
 * back into `<think>`, and in training mode attach the token ids.
 * @module
 */
import { completionRequest, completionToChat, promptOf } from './completions-api.js';
import { emptyChatCompletion, isContextOverflow } from './context-overflow.js';
import { GymModelReplyError } from './errors.js';
import { prepareChatRequest } from './params.js';
import { foldReplyReasoning } from './reasoning.js';
import { ReplicaSet } from './replicas.js';
import { attachTokenIds } from './token-ids.js';
import type { OpenAIUpstream, UpstreamCallOptions } from '@gym/server';
import type { ChatTemplate } from './chat-template.js';
import type { VllmModelConfig } from './config.js';

type Json = Record<string, unknown>;

/** Fields of the chat request that shape the prompt, sent to `/tokenize` so its ids match generation. */
const TOKENIZE_FIELDS = ['model', 'messages', 'tools', 'chat_template_kwargs', 'mm_processor_kwargs', 'required_prefix_token_ids'] as const;

/** The chat path of a vllm_model server. */
export class ChatPipeline {
  readonly #config: VllmModelConfig;
  readonly #replicas: ReplicaSet<OpenAIUpstream>;
  readonly #template: ChatTemplate | undefined;

  /** `template`: the model's chat template, for `use_completions_api` with `render_chat_template`. */
  constructor(config: VllmModelConfig, upstreams: readonly OpenAIUpstream[], template?: ChatTemplate) {
    this.#config = config;
    this.#replicas = new ReplicaSet(upstreams);
    this.#template = template;
  }

  /** The replica that serves `sessionId` (exposed for affinity checks). */
  replicaFor(sessionId: string): OpenAIUpstream {
    return this.#replicas.pick(sessionId);
  }

  /** Sends Chat request `body` for the session `sessionId`; resolves to the chat completion. `call.signal` aborts the upstream calls; `call.scope` is the request's trace scope. */
  async complete(body: Json, sessionId: string, call: UpstreamCallOptions = {}): Promise<Json> {
    const config = this.#config;
    if (config.useCompletionsApi) return this.#completeByPrompt(body, sessionId, call);
    const request = prepareChatRequest(body, config);
    if (!config.sequentialReasoningAllowed && endsWithEmptyAssistant(request['messages'] as Json[])) {
      return emptyChatCompletion(config.model, 'content_filter');
    }
    const upstream = this.#replicas.pick(sessionId);
    let completion: Json;
    try {
      completion = await upstream.post('/chat/completions', request, call);
    } catch (error) {
      if (isContextOverflow(error)) return emptyChatCompletion(config.model, 'length');
      throw error;
    }
    const choice = (completion['choices'] as Json[] | undefined)?.[0];
    if (choice == null || choice['message'] == null || typeof choice['message'] !== 'object') {
      throw new GymModelReplyError(`POST ${upstream.baseUrl}/chat/completions answered without choices[0].message. Check that base_url points at a vLLM /v1 endpoint.`);
    }
    foldReplyReasoning(choice['message'] as Json, config.usesReasoningParser, config.name);
    if (config.returnTokenIdInformation) {
      await attachTokenIds(completion, () => upstream.postUrl(`${upstream.baseUrl.replace(/\/v1$/, '')}/tokenize`, tokenizeBody(request), call));
    }
    return completion;
  }

  /** The `use_completions_api` path: render the prompt, `/v1/completions`, back to a chat completion. */
  async #completeByPrompt(body: Json, sessionId: string, call: UpstreamCallOptions): Promise<Json> {
    const config = this.#config;
    const prompt = promptOf(body, config, this.#template);
    const request = completionRequest(body, prompt, config);
    const upstream = this.#replicas.pick(sessionId);
    let completion: Json;
    try {
      completion = await upstream.post('/completions', request, call);
    } catch (error) {
      if (isContextOverflow(error)) return emptyChatCompletion(config.model, 'length');
      throw error;
    }
    const tokenize = () => upstream.postUrl(`${upstream.baseUrl.replace(/\/v1$/, '')}/tokenize`, { model: config.model, prompt }, call);
    return completionToChat(completion, config, tokenize);
  }
}

function tokenizeBody(request: Json): Json {
  const body: Json = {};
  for (const key of TOKENIZE_FIELDS) if (request[key] !== undefined) body[key] = request[key];
  return body;
}

/** With sequential reasoning off, a turn that would continue an empty assistant message is refused. */
function endsWithEmptyAssistant(messages: Json[]): boolean {
  const last = messages.at(-1);
  if (last?.['role'] !== 'assistant') return false;
  const toolCalls = last['tool_calls'];
  return !last['content'] && !(Array.isArray(toolCalls) && toolCalls.length > 0);
}
