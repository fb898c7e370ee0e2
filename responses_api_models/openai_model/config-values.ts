/**
 * zod helpers for config fields that may arrive as strings: `${oc.env:VAR,false}` yields the
 * string `"false"` (as OmegaConf does), which pydantic would still accept as a bool.
 * @module
 */
import { z } from 'zod';
import { GymUserError } from '@gym/runtime';

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** A boolean, also accepting `true/false/1/0/yes/no/on/off` strings (any case). */
export const configBool = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const lower = value.trim().toLowerCase();
  return TRUE.has(lower) ? true : FALSE.has(lower) ? false : value;
}, z.boolean());

/** A positive integer, also accepting a digit string. */
export const configPositiveInt = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z.int().positive(),
);

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
  throw new GymUserError(
    'GYM_MODEL_CONFIG_INVALID',
    `The config of model server '${instance}' is invalid (${problems.join('; ')}). Fix these fields in its YAML block.`,
  );
}
