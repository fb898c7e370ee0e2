/**
 * `vllm_model`: a model server in front of one or more OpenAI-compatible vLLM replicas.
 * `POST /v1/responses` is converted to Chat Completions and back; `POST
 * /v1/chat/completions` gets the same preprocessing and post-processing without conversion.
 * Docs: docs/models.md.
 * @module
 */
import { CHAT_COMPLETION_CREATE_PARAMS, defineModelServer, GymUpstreamError, OpenAIUpstream, MODEL_RESPONSES_PARAMS } from '@gym/server';
import { ChatPipeline } from './chat-pipeline.js';
import { loadChatTemplate } from './chat-template.js';
import { chatToResponse } from './chat-to-responses.js';
import { VLLM_MODEL_CONFIG, parseVllmModelConfig } from './config.js';
import { checkNativeConfig, prepareNativeRequest } from './native-responses.js';
import { responsesToChat } from './responses-to-chat.js';
import type { ServerFactory } from '@gym/server';

/** This server's own settings, checked by `gym env validate`. */
export const configSchema = VLLM_MODEL_CONFIG;

const createVllmModel: ServerFactory = (context) => {
  const config = parseVllmModelConfig(context.config, context.instance.instanceName);
  if (config.isResponsesNative) checkNativeConfig(config);
  const upstreams = config.baseUrls.map(
    (baseUrl) =>
      new OpenAIUpstream({
        http: context.http,
        baseUrl,
        apiKey: config.apiKey,
        defaultHeaders: config.defaultHeaders,
        propagateTraceparent: config.propagateTraceparent,
        propagateBaggage: config.propagateBaggage,
      }),
  );
  // read once at start-up: a missing or broken template stops the server before it serves
  const template = config.useCompletionsApi && config.renderChatTemplate ? loadChatTemplate(config.name, config.tokenizer ?? config.model) : undefined;
  const pipeline = new ChatPipeline(config, upstreams, template);
  const convert = { usesReasoningParser: config.usesReasoningParser, returnTokenIdInformation: config.returnTokenIdInformation, model: config.model };

  return defineModelServer({
    name: config.name,
    responses: {
      input: MODEL_RESPONSES_PARAMS,
      handler: async (body, { session, signal, scope }) => {
        if (config.isResponsesNative) {
          const reply = await pipeline.replicaFor(session.id).post('/responses', prepareNativeRequest(body, config), { signal, scope });
          if (!Array.isArray(reply['output'])) throw new GymUpstreamError('GYM_MODEL_BAD_REPLY', `vLLM's /responses answered without an output list. Check is_responses_native and base_url.`);
          return reply;
        }
        const chat = responsesToChat(body, { carryTokenIds: config.returnTokenIdInformation });
        const completion = await pipeline.complete(chat, session.id, { signal, scope });
        return chatToResponse(completion, body, convert);
      },
    },
    chatCompletions: {
      input: CHAT_COMPLETION_CREATE_PARAMS,
      handler: (body, { session, scope }) => pipeline.complete(body, session.id, { scope }),
    },
  });
};

export default createVllmModel;
