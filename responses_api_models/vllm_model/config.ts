/**
 * The config block of a `vllm_model` instance.
 * @module
 */
import { z } from 'zod';
import { configBool, configHeaders, configObject, parseModelConfig, PROPAGATION_FIELDS, upstreamPropagation } from '@gym/server';

/** Fields of a `vllm_model` block; other keys (`entrypoint`, `host`, …) are ignored. */
export const VLLM_MODEL_CONFIG = z.looseObject({
  base_url: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  api_key: z.string(),
  model: z.string().min(1),
  return_token_id_information: configBool,
  uses_reasoning_parser: configBool,
  uses_interleaved_reasoning: configBool.nullish(),
  preserve_reasoning_in_assistant_content: configBool.nullish(),
  replace_developer_role_with_system: configBool.nullish(),
  sequential_reasoning_allowed: configBool.nullish(),
  is_responses_native: configBool.nullish(),
  chat_template_kwargs: configObject.nullish(),
  sampling_overrides: configObject.nullish(),
  extra_body: configObject.nullish(),
  default_headers: configHeaders.nullish(),
  ...PROPAGATION_FIELDS,
  request_prompt_and_generation_token_ids: configBool.nullish(),
  use_completions_api: configBool.nullish(),
  render_chat_template: configBool.nullish(),
  tokenizer: z.string().nullish(),
  audio_root: z.string().nullish(),
});

/** A parsed `vllm_model` config, defaults applied. */
export interface VllmModelConfig {
  /** The instance name, for messages. */
  name: string;
  /** One URL per vLLM replica (a single `base_url` string becomes a list of one). */
  baseUrls: string[];
  apiKey: string;
  model: string;
  returnTokenIdInformation: boolean;
  usesReasoningParser: boolean;
  usesInterleavedReasoning: boolean;
  preserveReasoningInAssistantContent: boolean;
  replaceDeveloperRoleWithSystem: boolean;
  sequentialReasoningAllowed: boolean;
  isResponsesNative: boolean;
  chatTemplateKwargs: Record<string, unknown> | null;
  samplingOverrides: Record<string, unknown> | null;
  extraBody: Record<string, unknown> | null;
  defaultHeaders: Record<string, string>;
  requestPromptAndGenerationTokenIds: boolean;
  audioRoot: string | null;
  /** Serve through vLLM's `/v1/completions` instead of `/v1/chat/completions`. */
  useCompletionsApi: boolean;
  /** With `useCompletionsApi`: render the prompt with the model's chat template (else one user message's text). */
  renderChatTemplate: boolean;
  /** Where the chat template comes from (a local tokenizer directory, file, or cached hub model); `null` = `model`. */
  tokenizer: string | null;
  /** Send `traceparent` to vLLM (default true). */
  propagateTraceparent: boolean;
  /** Send gym's baggage to vLLM (default false). */
  propagateBaggage: boolean;
}

/** Parses an instance's field map; rejects options gym does not implement (see docs/models.md). */
export function parseVllmModelConfig(config: unknown, instance: string): VllmModelConfig {
  const c = parseModelConfig(VLLM_MODEL_CONFIG, config, instance);
  return {
    name: instance,
    baseUrls: typeof c.base_url === 'string' ? [c.base_url] : c.base_url,
    apiKey: c.api_key,
    model: c.model,
    returnTokenIdInformation: c.return_token_id_information,
    usesReasoningParser: c.uses_reasoning_parser,
    usesInterleavedReasoning: c.uses_interleaved_reasoning ?? true,
    preserveReasoningInAssistantContent: c.preserve_reasoning_in_assistant_content ?? false,
    replaceDeveloperRoleWithSystem: c.replace_developer_role_with_system ?? false,
    sequentialReasoningAllowed: c.sequential_reasoning_allowed ?? true,
    isResponsesNative: c.is_responses_native ?? false,
    chatTemplateKwargs: c.chat_template_kwargs ?? null,
    samplingOverrides: c.sampling_overrides ?? null,
    extraBody: c.extra_body ?? null,
    defaultHeaders: c.default_headers ?? {},
    requestPromptAndGenerationTokenIds: c.request_prompt_and_generation_token_ids ?? false,
    audioRoot: c.audio_root ?? null,
    useCompletionsApi: c.use_completions_api ?? false,
    renderChatTemplate: c.render_chat_template ?? false,
    tokenizer: c.tokenizer ?? null,
    ...upstreamPropagation(c),
  };
}
