/**
 * What every simulated reply is stamped with, in either dialect: when it was created and which
 * model answered.
 * @module
 */

/** `created` (chat) or `created_at` (responses) and `model` of a reply to `body`; `model` names the simulator. */
export function replyStamp(body: Record<string, unknown>, model: string): { created: number; model: string } {
  // the request's model is echoed as OpenAI does; the simulator's own name only when it gave none
  return { created: Math.floor(Date.now() / 1000), model: typeof body['model'] === 'string' ? body['model'] : model };
}
