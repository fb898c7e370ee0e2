/**
 * Failures of `POST /v1/messages` in Anthropic's error envelope,
 * `{"type": "error", "error": {"type": "invalid_request_error", "message": "…"}}`, which Anthropic
 * clients (the SDKs, the Claude Code CLI) parse; the status code stays as the server answers it.
 * Every failure of the route is rewritten as it leaves — a refused block (400), a body that fails
 * validation (422, its fields named), an unparsable body, a handler error (500) — so no other
 * error path needs to know the dialect.
 * @module
 */
import type { FastifyInstance } from 'fastify';

/** Anthropic's error `type` for an HTTP status. */
export function anthropicErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529 || status === 503) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** The message of one of our error bodies: `detail` text, validation issues as `loc: msg`, or a 500's text. */
function messageOf(body: unknown): string {
  if (typeof body === 'string') return body;
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail.map((issue: { loc?: unknown; msg?: unknown }) => `${Array.isArray(issue.loc) ? issue.loc.join('.') : ''}: ${String(issue.msg)}`).join('; ');
  }
  return JSON.stringify(body);
}

/** Rewrites every JSON error answer of `path` on `app` into Anthropic's envelope. */
export function useAnthropicErrors(app: FastifyInstance, path: string): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || request.routeOptions.url !== path || typeof payload !== 'string') return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      body = payload;
    }
    if ((body as { type?: unknown } | null)?.type === 'error') return payload;
    return JSON.stringify({ type: 'error', error: { type: anthropicErrorType(reply.statusCode), message: messageOf(body) } });
  });
}
