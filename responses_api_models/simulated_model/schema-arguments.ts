/**
 * Tool arguments that satisfy a tool's JSON schema, derived from the conversation: strings take a
 * word from the last user message (so `get_weather` asked about "sf" gets `{"city":"sf"}`),
 * numbers and booleans plausible constants, enums their first value. A schema is the caller's
 * data: any part of the wrong shape is read as absent, never thrown on.
 * @module
 */

/** The subset of JSON Schema the simulator understands. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  default?: unknown;
}

const STOP_WORDS = new Set([
  'the',
  'a',
  'an',
  'in',
  'at',
  'is',
  'it',
  'what',
  "what's",
  'like',
  'how',
  'there',
  'today',
  'tonight',
  'weather',
  'should',
  'i',
  'bring',
  'jacket',
  'going',
  'out',
  'of',
  'to',
  'for',
  'me',
  'please',
]);

/** The most specific-looking word of `text`: the last word that is not a stop word. */
export function salientWord(text: string): string {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_-]+/gu) ?? [];
  for (let i = words.length - 1; i >= 0; i--) if (!STOP_WORDS.has(words[i]!)) return words[i]!;
  return words.at(-1) ?? 'unknown';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A value valid for `schema`, using `hint` for strings. */
export function valueFor(schema: JsonSchema, hint: string): unknown {
  if (!isObject(schema)) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type: unknown = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return hint;
    case 'integer':
      return 1;
    case 'number':
      return 1.0;
    case 'boolean':
      return true;
    case 'array':
      return isObject(schema.items) ? [valueFor(schema.items, hint)] : [];
    case 'object':
    case undefined:
      return argumentsFor(schema, hint);
    default:
      return null;
  }
}

/** An arguments object for a tool whose parameters are `schema`: every required property filled. */
export function argumentsFor(schema: JsonSchema | undefined, hint: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === 'string') : Object.keys(properties);
  for (const name of required) out[name] = valueFor(Object.hasOwn(properties, name) ? properties[name]! : { type: 'string' }, hint);
  return out;
}
