/**
 * The config block of an `openai_model` instance.
 * @module
 */
import { z } from 'zod';
import { configBool, configHeaders, configObject, configPositiveInt, parseModelConfig, PROPAGATION_FIELDS, upstreamPropagation } from '@gym/server';

/** Env var giving the default of `drop_input_reasoning_items`, as in the original. */
export const DROP_REASONING_ENV = 'POLICY_DROP_REASONING_ITEMS';

/** Fields of an `openai_model` block; other keys (`entrypoint`, `host`, …) are ignored. */
export const OPENAI_MODEL_CONFIG = z.looseObject({
  openai_base_url: z.string().min(1),
  openai_api_key: z.string(),
  openai_model: z.string().min(1),
  openai_organization: z.string().nullish(),
  openai_default_headers: configHeaders.nullish(),
  extra_body: configObject.nullish(),
  max_concurrent_requests: configPositiveInt.nullish(),
  drop_input_reasoning_items: configBool.nullish(),
  ...PROPAGATION_FIELDS,
});

/** A parsed `openai_model` config. */
export interface OpenAIModelConfig {
  openaiBaseUrl: string;
  openaiApiKey: string;
  openaiModel: string;
  /** Default headers, with `OpenAI-Organization` when `openai_organization` is set. */
  defaultHeaders: Record<string, string>;
  extraBody: Record<string, unknown>;
  maxConcurrentRequests: number | null;
  dropInputReasoningItems: boolean;
  /** Send `traceparent` upstream (default true). */
  propagateTraceparent: boolean;
  /** Send gym's baggage upstream (default false). */
  propagateBaggage: boolean;
}

/** Parses `config` (an instance's field map); `env` supplies the `drop_input_reasoning_items` default. */
export function parseOpenAIModelConfig(config: unknown, instance: string, env: NodeJS.ProcessEnv = process.env): OpenAIModelConfig {
  const c = parseModelConfig(OPENAI_MODEL_CONFIG, config, instance);
  const drop = c.drop_input_reasoning_items ?? configBool.safeParse(env[DROP_REASONING_ENV] ?? 'false').data ?? false;
  return {
    openaiBaseUrl: c.openai_base_url,
    openaiApiKey: c.openai_api_key,
    openaiModel: c.openai_model,
    defaultHeaders: { ...(c.openai_organization ? { 'OpenAI-Organization': c.openai_organization } : {}), ...c.openai_default_headers },
    extraBody: c.extra_body ?? {},
    maxConcurrentRequests: c.max_concurrent_requests ?? null,
    dropInputReasoningItems: drop,
    ...upstreamPropagation(c),
  };
}
