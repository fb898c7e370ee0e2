/**
 * `is_responses_native: true`: the Responses request goes to vLLM's own `/responses` (GPT-OSS
 * style servers) with the configured model, `chat_template_kwargs`, `extra_body` underneath and
 * `sampling_overrides` on top; no format conversion.
 * @module
 */
import { GymUserError } from '@gym/server';
import type { VllmModelConfig } from './config.js';

type Json = Record<string, unknown>;

/** Fails at startup for options the native path does not support (as the original, which fails per request). */
export function checkNativeConfig(config: VllmModelConfig): void {
  const unsupported = [
    config.returnTokenIdInformation && 'return_token_id_information: true',
    config.replaceDeveloperRoleWithSystem && 'replace_developer_role_with_system: true',
    !config.sequentialReasoningAllowed && 'sequential_reasoning_allowed: false',
  ].filter((x): x is string => typeof x === 'string');
  if (unsupported.length > 0) {
    throw new GymUserError(
      'GYM_MODEL_CONFIG_UNSUPPORTED',
      `Model server '${config.name}' sets is_responses_native: true together with ${unsupported.join(', ')}, which the native Responses path does not support.`,
    );
  }
}

/** The body sent to `<base_url>/responses`. */
export function prepareNativeRequest(body: Json, config: VllmModelConfig): Json {
  let request: Json = { ...body, model: config.model };
  if (config.chatTemplateKwargs) request['chat_template_kwargs'] = structuredClone(config.chatTemplateKwargs);
  if (config.extraBody) request = { ...config.extraBody, ...request };
  if (config.samplingOverrides) Object.assign(request, config.samplingOverrides);
  return request;
}
