/**
 * The OpenAI-compatible upstream side of gym's model servers: the client every such server
 * (`openai_model`, `vllm_model`) calls its endpoint with, the key redaction of its errors, and
 * the config field helpers their YAML blocks share.
 * @module
 */
export { OpenAIUpstream } from './openai-upstream.js';
export type { OpenAIUpstreamOptions, UpstreamCallOptions } from './openai-upstream.js';
export { isHttpStatusError, redactError, redactText, REDACTED } from './redact-secrets.js';
export type { HttpStatusErrorLike } from './redact-secrets.js';
export { configBool, configHeaders, configObject, configPositiveInt, parseModelConfig, PROPAGATION_FIELDS, upstreamPropagation } from './config-values.js';
