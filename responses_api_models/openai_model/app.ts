/**
 * `openai_model`: a pass-through model server in front of an OpenAI-compatible API.
 * `POST /v1/responses` → `<openai_base_url>/responses` and `POST /v1/chat/completions` →
 * `<openai_base_url>/chat/completions`, with `extra_body`, the configured model, default headers,
 * Bearer auth and an optional concurrency cap. Docs: docs/models.md.
 * @module
 */
import { CHAT_COMPLETION_CREATE_PARAMS, defineModelServer, GymUpstreamError, OpenAIUpstream, MODEL_RESPONSES_PARAMS } from '@gym/server';
import { OPENAI_MODEL_CONFIG, parseOpenAIModelConfig } from './config.js';
import { checkReply, dropReasoningItems, withExtraBodyAndModel } from './pass-through.js';
import { Semaphore } from './semaphore.js';
import type { ServerFactory, UpstreamCallOptions } from '@gym/server';

type Json = Record<string, unknown>;

/** This server's own settings, checked by `gym env validate`. */
export const configSchema = OPENAI_MODEL_CONFIG;

const createOpenAIModel: ServerFactory = (context) => {
  const name = context.instance.instanceName;
  const config = parseOpenAIModelConfig(context.config, name);
  const upstream = new OpenAIUpstream({
    http: context.http,
    baseUrl: config.openaiBaseUrl,
    apiKey: config.openaiApiKey,
    defaultHeaders: config.defaultHeaders,
    propagateTraceparent: config.propagateTraceparent,
    propagateBaggage: config.propagateBaggage,
  });
  const semaphore = config.maxConcurrentRequests === null ? undefined : new Semaphore(config.maxConcurrentRequests);
  const call = async (path: string, body: Json, kind: 'response' | 'chat.completion', options: UpstreamCallOptions): Promise<Json> => {
    const send = () => upstream.post(path, body, options);
    const reply = semaphore === undefined ? await send() : await semaphore.run(send);
    const problem = checkReply(reply, kind);
    if (problem !== undefined) {
      throw new GymUpstreamError('GYM_MODEL_BAD_REPLY', `POST ${upstream.baseUrl}${path} answered with a body that is not a ${kind} object (${problem}). Check openai_base_url.`);
    }
    return reply;
  };

  return defineModelServer({
    name,
    responses: {
      input: MODEL_RESPONSES_PARAMS,
      handler: (body, { signal, scope }) => {
        let request = withExtraBodyAndModel(body, config.extraBody, config.openaiModel);
        if (config.dropInputReasoningItems) request = dropReasoningItems(request);
        return call('/responses', request, 'response', { signal, scope });
      },
    },
    chatCompletions: {
      input: CHAT_COMPLETION_CREATE_PARAMS,
      handler: (body, { scope }) => call('/chat/completions', withExtraBodyAndModel(body, config.extraBody, config.openaiModel), 'chat.completion', { scope }),
    },
  });
};

export default createOpenAIModel;
