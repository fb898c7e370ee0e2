/**
 * The default body schemas of the model and agent routes: the Responses request
 * (`NeMoGymResponseCreateParamsNonStreaming`) and the Chat Completions request, checked as far as
 * gym's own code reads them — the type of every known field, of each `input` item by its `type`,
 * of each tool — so a wrong type is a 422 naming the field, never a `TypeError` 500 inside a
 * handler. Unknown top-level fields pass (model servers forward provider extras); a model server
 * that wants the original's `extra="forbid"` passes a strict schema of its own.
 * @module
 */
import { z } from 'zod';

const OBJECT = z.looseObject({});
const TOKEN_IDS = z.array(z.int()).optional();
/** The training fields (`prompt_token_ids`, …) a message, function call or reasoning item may carry. */
const TRAINING_FIELDS = {
  prompt_token_ids: TOKEN_IDS,
  generation_token_ids: TOKEN_IDS,
  generation_log_probs: z.array(z.number()).optional(),
};
/** A content part: `{type: "input_text", text}` and friends. */
const CONTENT_PART = z.looseObject({ type: z.string(), text: z.string().optional() });
const TEXT_OR_PARTS = z.union([z.string(), z.array(CONTENT_PART)]);

/** What each known item `type` must carry (a message may leave `type` out: the easy form). */
export const ITEM_SHAPES: Readonly<Record<string, z.ZodType>> = {
  message: z.looseObject({ role: z.enum(['user', 'assistant', 'system', 'developer']), content: TEXT_OR_PARTS, status: z.string().nullish(), ...TRAINING_FIELDS }),
  function_call: z.looseObject({ call_id: z.string(), name: z.string(), arguments: z.string(), id: z.string().nullish(), status: z.string().nullish(), ...TRAINING_FIELDS }),
  function_call_output: z.looseObject({ call_id: z.string(), output: TEXT_OR_PARTS, id: z.string().nullish(), status: z.string().nullish() }),
  reasoning: z.looseObject({ summary: z.array(z.looseObject({ type: z.string(), text: z.string() })), encrypted_content: z.string().nullish(), ...TRAINING_FIELDS }),
};

/**
 * Checks `value` against the shape its discriminator picks, adding the issues (paths relative to
 * `value`) to `ctx`. Unknown discriminators pass: the OpenAI item zoo is passed through as is.
 */
function checkShape(shapes: Readonly<Record<string, z.ZodType>>, kind: string, value: unknown, ctx: z.RefinementCtx): void {
  const shape = shapes[kind];
  if (shape === undefined) return;
  const parsed = shape.safeParse(value, { reportInput: true });
  if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue(issue as z.core.$ZodRawIssue);
}

/**
 * A list entry checked by a plain predicate first — a rollout body carries dozens of items, and
 * zod objects per item would cost more than parsing the JSON — and by the zod shapes only when
 * the predicate fails, to say what is wrong. The value passes through uncopied.
 */
function checkedEntry(quick: (value: Record<string, unknown>) => boolean, kindOf: (value: Record<string, unknown>) => unknown, shapes: Readonly<Record<string, z.ZodType>>) {
  return z.custom<Record<string, unknown>>().superRefine((value, ctx) => {
    if (!isObject(value)) {
      ctx.addIssue({ code: 'invalid_type', expected: 'object', input: value });
      return;
    }
    if (quick(value)) return;
    const kind = kindOf(value);
    if (typeof kind !== 'string') {
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: kind, path: ['type'] });
      return;
    }
    checkShape(shapes, kind, value, ctx);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
const isString = (v: unknown): v is string => typeof v === 'string';
const isOptString = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
// z.int() takes safe integers only
const isInt = (v: unknown): boolean => Number.isSafeInteger(v);
const isOptIntArray = (v: unknown): boolean => v === undefined || (Array.isArray(v) && v.every(isInt));
const isOptNumberArray = (v: unknown): boolean => v === undefined || (Array.isArray(v) && v.every((n) => typeof n === 'number'));
const ROLES = new Set(['user', 'assistant', 'system', 'developer']);
const isPart = (p: unknown): boolean => isObject(p) && isString(p['type']) && (p['text'] === undefined || isString(p['text']));
const isTextOrParts = (v: unknown): boolean => isString(v) || (Array.isArray(v) && v.every(isPart));
const hasTrainingFields = (i: Record<string, unknown>): boolean => isOptIntArray(i['prompt_token_ids']) && isOptIntArray(i['generation_token_ids']) && isOptNumberArray(i['generation_log_probs']);

/** The plain-code twin of {@link ITEM_SHAPES}: true exactly when that shape (if any) accepts `item`. */
export function isValidInputItem(item: Record<string, unknown>): boolean {
  const type = item['type'];
  switch (type) {
    case undefined:
    case 'message':
      return ROLES.has(item['role'] as string) && isTextOrParts(item['content']) && isOptString(item['status']) && hasTrainingFields(item);
    case 'function_call':
      return isString(item['call_id']) && isString(item['name']) && isString(item['arguments']) && isOptString(item['id']) && isOptString(item['status']) && hasTrainingFields(item);
    case 'function_call_output':
      return isString(item['call_id']) && isTextOrParts(item['output']) && isOptString(item['id']) && isOptString(item['status']);
    case 'reasoning':
      return (
        Array.isArray(item['summary']) && item['summary'].every((p) => isObject(p) && isString(p['type']) && isString(p['text'])) && isOptString(item['encrypted_content']) && hasTrainingFields(item)
      );
    default:
      return isString(type);
  }
}

/** One item of a Responses `input` list (or of a `Response.output`). */
export const RESPONSES_INPUT_ITEM = checkedEntry(isValidInputItem, (item) => item['type'] ?? 'message', ITEM_SHAPES);

export const TOOL_SHAPES: Readonly<Record<string, z.ZodType>> = {
  function: z.looseObject({ name: z.string(), parameters: OBJECT.nullish(), strict: z.boolean().nullish(), description: z.string().nullish() }),
};

/** The plain-code twin of {@link TOOL_SHAPES}. */
export function isValidTool(tool: Record<string, unknown>): boolean {
  const type = tool['type'];
  if (type !== 'function') return isString(type);
  const parameters = tool['parameters'];
  const strict = tool['strict'];
  return (
    isString(tool['name']) &&
    (parameters === undefined || parameters === null || isObject(parameters)) &&
    (strict === undefined || strict === null || typeof strict === 'boolean') &&
    isOptString(tool['description'])
  );
}

/** One entry of a Responses `tools` list. */
export const RESPONSES_TOOL = checkedEntry(isValidTool, (tool) => tool['type'], TOOL_SHAPES);

/** The Responses request fields of the original's pydantic model, each with its type. */
export const RESPONSES_REQUEST_FIELDS = {
  input: z.union([z.string(), z.array(RESPONSES_INPUT_ITEM)]),
  instructions: z.string().nullish(),
  max_output_tokens: z.int().nullish(),
  max_tool_calls: z.int().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  model: z.string().nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  previous_response_id: z.string().nullish(),
  prompt: OBJECT.nullish(),
  reasoning: OBJECT.nullish(),
  service_tier: z.string().nullish(),
  store: z.boolean().nullish(),
  temperature: z.number().nullish(),
  text: OBJECT.nullish(),
  tool_choice: z.union([z.string(), OBJECT]).nullish(),
  tools: z.array(RESPONSES_TOOL).nullish(),
  top_logprobs: z.int().nullish(),
  top_p: z.number().nullish(),
  truncation: z.string().nullish(),
  user: z.string().nullish(),
  background: z.boolean().nullish(),
  include: z.array(z.string()).nullish(),
  // a model server takes `stream: true` off before this schema sees the body (streamed-requests.ts)
  stream: z.literal(false).nullish(),
};

/** Default body of `POST /v1/responses` (model and agent servers); unknown top-level fields pass. */
export const RESPONSES_REQUEST = z.looseObject(RESPONSES_REQUEST_FIELDS);

const nullish =
  (check: (v: unknown) => boolean) =>
  (v: unknown): boolean =>
    v === undefined || v === null || check(v);
const isNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const isBoolean = (v: unknown): boolean => typeof v === 'boolean';
const isItem = (v: unknown): boolean => isObject(v) && isValidInputItem(v);
const isToolEntry = (v: unknown): boolean => isObject(v) && isValidTool(v);

/** The plain-code twin of {@link RESPONSES_REQUEST_FIELDS}, field by field. */
const REQUEST_FIELD_CHECKS: Readonly<Record<keyof typeof RESPONSES_REQUEST_FIELDS, (v: unknown) => boolean>> = {
  input: (v) => isString(v) || (Array.isArray(v) && v.every(isItem)),
  instructions: nullish(isString),
  max_output_tokens: nullish(isInt),
  max_tool_calls: nullish(isInt),
  metadata: nullish((v) => isObject(v) && Object.values(v).every(isString)),
  model: nullish(isString),
  parallel_tool_calls: nullish(isBoolean),
  previous_response_id: nullish(isString),
  prompt: nullish(isObject),
  reasoning: nullish(isObject),
  service_tier: nullish(isString),
  store: nullish(isBoolean),
  temperature: nullish(isNumber),
  text: nullish(isObject),
  tool_choice: nullish((v) => isString(v) || isObject(v)),
  tools: nullish((v) => Array.isArray(v) && v.every(isToolEntry)),
  top_logprobs: nullish(isInt),
  top_p: nullish(isNumber),
  truncation: nullish(isString),
  user: nullish(isString),
  background: nullish(isBoolean),
  include: nullish((v) => Array.isArray(v) && v.every(isString)),
  stream: nullish((v) => v === false),
};
const REQUEST_FIELD_ENTRIES = Object.entries(REQUEST_FIELD_CHECKS);

/**
 * True exactly when {@link RESPONSES_REQUEST} accepts `body`: the schemas that pass a valid body
 * through uncopied (`/run`, an agent's `/v1/responses`) ask this first, and zod runs only for a
 * body that fails, to name what is wrong.
 */
export function isValidResponsesRequest(body: unknown): boolean {
  if (!isObject(body)) return false;
  for (const [key, check] of REQUEST_FIELD_ENTRIES) if (!check(body[key])) return false;
  return true;
}

/** The fields whose value zod hands back as a copy: lists, and objects (`tool_choice` when one). */
const copyOf = (value: unknown): unknown => (Array.isArray(value) ? value.slice() : isObject(value) ? { ...value } : value);

/**
 * What `RESPONSES_REQUEST.parse(body)` returns for a body {@link isValidResponsesRequest} accepts,
 * made without zod: the known fields in the schema's order, then the others in the body's, each
 * list and object one level copied, as zod copies them.
 */
export function parsedResponsesRequest(body: Record<string, unknown>): Record<string, unknown> {
  const parsed: Record<string, unknown> = {};
  for (const [key] of REQUEST_FIELD_ENTRIES) if (key in body) parsed[key] = copyOf(body[key]);
  for (const key in body) if (!Object.hasOwn(REQUEST_FIELD_CHECKS, key)) parsed[key] = body[key];
  return parsed;
}

const CHAT_MESSAGE = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.union([z.string(), z.array(CONTENT_PART)]).nullish(),
  tool_calls: z.array(z.looseObject({ id: z.string().optional(), type: z.string().optional(), function: z.looseObject({ name: z.string(), arguments: z.string() }) })).nullish(),
  tool_call_id: z.string().nullish(),
  name: z.string().nullish(),
});
const CHAT_TOOL = z.looseObject({ type: z.string(), function: z.looseObject({ name: z.string(), parameters: OBJECT.nullish(), description: z.string().nullish() }).optional() });

/** Default body of `POST /v1/chat/completions`: typed messages and tools; other chat params pass. */
export const CHAT_COMPLETIONS_REQUEST = z.looseObject({
  messages: z.array(CHAT_MESSAGE).min(1),
  model: z.string().nullish(),
  tools: z.array(CHAT_TOOL).nullish(),
  tool_choice: z.union([z.string(), OBJECT]).nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  max_tokens: z.int().nullish(),
  max_completion_tokens: z.int().nullish(),
  n: z.int().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  stream: z.literal(false).nullish(),
});
