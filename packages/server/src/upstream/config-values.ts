/**
 * zod helpers for config fields that may arrive as strings: `${oc.env:VAR,false}` yields the
 * string `"false"` (as OmegaConf does), which pydantic would still accept as a bool.
 * @module
 */
import { z } from 'zod';
import { GymUserError } from '../errors.js';

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** A boolean, also accepting `true/false/1/0/yes/no/on/off` strings (any case). */
export const configBool = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const lower = value.trim().toLowerCase();
  return TRUE.has(lower) ? true : FALSE.has(lower) ? false : value;
}, z.boolean());

/** A positive integer, also accepting a digit string. */
export const configPositiveInt = z.preprocess((value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value), z.int().positive());

/** A JSON object map (`extra_body`, `chat_template_kwargs`, …). */
export const configObject = z.record(z.string(), z.unknown());

/** A string → string map (headers). */
export const configHeaders = z.record(z.string(), z.string());

/**
 * Parses an instance's config map with `schema`. Failures name the instance and the fields, never
 * the values (a value may be a key).
 */
export function parseModelConfig<S extends z.ZodType>(schema: S, config: unknown, instance: string): z.output<S> {
  const parsed = schema.safeParse(config);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new GymUserError('GYM_MODEL_CONFIG_INVALID', `The config of model server '${instance}' is invalid (${problems.join('; ')}). Fix these fields in its YAML block.`);
}

/**
 * What a model server sends its upstream (a third party) besides the request: `traceparent`
 * (default on: standard, and it names no one) and gym's baggage, the rollout id (default off).
 */
export const PROPAGATION_FIELDS = {
  propagate_traceparent: configBool.nullish(),
  propagate_baggage: configBool.nullish(),
};

/** The upstream propagation of a parsed block holding {@link PROPAGATION_FIELDS}. */
export function upstreamPropagation(c: { propagate_traceparent?: boolean | null | undefined; propagate_baggage?: boolean | null | undefined }): {
  propagateTraceparent: boolean;
  propagateBaggage: boolean;
} {
  return { propagateTraceparent: c.propagate_traceparent ?? true, propagateBaggage: c.propagate_baggage ?? false };
}
