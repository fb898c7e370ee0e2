/**
 * The body rewrites of `openai_model`: no format conversion, only `extra_body`
 * underneath the request, the configured model, and optionally no input reasoning items.
 * @module
 */

type Json = Record<string, unknown>;

/** `extra_body` merged underneath `body` (fields the caller set win), `model` forced to `model`. */
export function withExtraBodyAndModel(body: Json, extraBody: Json, model: string): Json {
  return { ...extraBody, ...body, model };
}

/**
 * Drops `type: "reasoning"` items from a Responses `input` list. A workaround for endpoints that
 * fail on their own content-less reasoning items when they are sent back.
 */
export function dropReasoningItems(body: Json): Json {
  const input = body['input'];
  if (!Array.isArray(input)) return body;
  return { ...body, input: input.filter((item) => !(item !== null && typeof item === 'object' && (item as Json)['type'] === 'reasoning')) };
}

/** Checks that an upstream answer looks like the object it should be, else names what is wrong. */
export function checkReply(reply: Json, kind: 'response' | 'chat.completion'): string | undefined {
  if (kind === 'response') return Array.isArray(reply['output']) ? undefined : 'it has no `output` list';
  return Array.isArray(reply['choices']) && reply['choices'].length > 0 ? undefined : 'it has no `choices`';
}
