/**
 * Preprocessing of a Chat request before it goes to vLLM, shared by both
 * routes: developer → system, the configured model, `chat_template_kwargs` and `extra_body` from
 * config and row metadata, training flags, reasoning in history, and `sampling_overrides` last.
 * @module
 */
import { GymModelInputError } from './errors.js';
import { moveHistoryReasoning } from './reasoning.js';
import type { VllmModelConfig } from './config.js';

type Json = Record<string, unknown>;

/** Row-metadata keys of the original's audio side channel (not implemented; refused rather than ignored). */
const AUDIO_KEYS = ['audio_data', 'audio_path', 'audio_paths'] as const;

/** The config fields preprocessing reads. */
export type ParamsConfig = Pick<
  VllmModelConfig,
  | 'model'
  | 'replaceDeveloperRoleWithSystem'
  | 'chatTemplateKwargs'
  | 'extraBody'
  | 'returnTokenIdInformation'
  | 'requestPromptAndGenerationTokenIds'
  | 'usesReasoningParser'
  | 'usesInterleavedReasoning'
  | 'preserveReasoningInAssistantContent'
  | 'samplingOverrides'
>;

/** Builds the upstream body from a Chat request; `body` is not modified. */
export function prepareChatRequest(body: Json, config: ParamsConfig): Json {
  let request = structuredClone(body);
  const messages = request['messages'] as Json[];
  stripStrict(request['tools']);
  if (config.replaceDeveloperRoleWithSystem) {
    for (const m of messages) if (m['role'] === 'developer') m['role'] = 'system';
  }
  request['model'] = config.model;
  const metadata = (request['metadata'] ?? {}) as Record<string, string>;
  const audio = AUDIO_KEYS.find((key) => metadata[key] != null && metadata[key] !== '');
  if (audio !== undefined) throw new GymModelInputError(`metadata.${audio}: the audio side channel of the original is not implemented in gym yet.`);
  const kwargs = { ...config.chatTemplateKwargs, ...(request['chat_template_kwargs'] as Json | undefined), ...metadataJson(metadata, 'chat_template_kwargs') };
  if (Object.keys(kwargs).length > 0) request['chat_template_kwargs'] = kwargs;
  const extraBody = { ...config.extraBody, ...metadataJson(metadata, 'extra_body') };
  if (config.returnTokenIdInformation) {
    // top_logprobs 0: only the sampled token's id and logprob are needed
    Object.assign(request, { logprobs: true, top_logprobs: 0, return_tokens_as_token_ids: true });
    if (config.requestPromptAndGenerationTokenIds) request['return_token_ids'] = true;
  }
  if (config.usesReasoningParser && !config.preserveReasoningInAssistantContent) {
    moveHistoryReasoning(messages, config.usesInterleavedReasoning);
  }
  // vLLM reads a null top_logprobs as "no logprobs" but a missing one as its default
  if (request['top_logprobs'] === null) delete request['top_logprobs'];
  request = { ...extraBody, ...request };
  // pinned sampling wins over the caller and extra_body, so generation stays on-policy
  if (config.samplingOverrides) Object.assign(request, config.samplingOverrides);
  if (config.returnTokenIdInformation && request['n'] != null && request['n'] !== 1) {
    throw new GymModelInputError('n: training mode (return_token_id_information) needs n = 1.');
  }
  return request;
}

/** Reads a JSON-encoded object from row metadata (`metadata.extra_body`, `metadata.chat_template_kwargs`). */
export function metadataJson(metadata: Record<string, string>, key: string): Json {
  const raw = metadata[key];
  if (raw == null || raw === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new GymModelInputError(`metadata.${key}: expected a JSON object encoded as a string, e.g. '{"enable_thinking": false}'.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GymModelInputError(`metadata.${key}: expected a JSON object encoded as a string.`);
  }
  return value as Json;
}

/** `strict` is an OpenAI-hosted flag vLLM ignores, and some chat templates would render it. */
function stripStrict(tools: unknown): void {
  if (!Array.isArray(tools)) return;
  for (const tool of tools as Json[]) {
    const fn = tool?.['function'] as Json | undefined;
    if (tool?.['type'] === 'function' && fn != null) delete fn['strict'];
  }
}
