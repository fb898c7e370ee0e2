/**
 * How the ingress answers failures, in the original's shapes: 4xx bodies are
 * `{"detail": …}`, an uncaught handler error is a 500 whose JSON body is a *string*, and the
 * stack goes to the log, never to the client.
 * @module
 */
import { scrubJsonText, scrubSecrets } from '../config/secret-scrub.js';
import { GymHttpRequestError, GymHttpStatusError } from '../http/errors.js';
import { encodeUpstreamCause, UPSTREAM_CAUSE_HEADER } from '../http/upstream-cause.js';
import { logInRequestScope } from './request-log-scope.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteHookOptions } from './route-hooks.js';

/** Sends `value` as JSON (strings too: fastify would send them as text/plain). */
export function sendJson(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(value ?? null));
}

/** {@link sendJson} for error replies: their text may echo an upstream's words, keys included, so it is scrubbed. */
function sendErrorJson(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(scrubJsonText(JSON.stringify(value ?? null)));
}

/**
 * The 500 body for an uncaught `error` in the server labelled `serverLabel`
 * (`<ServerClass>___<name>`): an inner HTTP failure nests the inner body, anything else is
 * Python-`repr`-like (`Error('boom')`), a non-error throw is "An unknown error occurred".
 */
export function internalErrorBody(error: unknown, serverLabel: string): string {
  if (error instanceof GymHttpStatusError) {
    return `Hit an exception in ${serverLabel} calling an inner server: ${error.bodyText}`;
  }
  if (error instanceof Error) return `${error.name}(${pyQuote(error.message)})`;
  return 'An unknown error occurred';
}

/** Installs the error and not-found handlers on `app`; `notFoundHooks` are the not-found handler's own hooks. */
export function installErrorHandling(app: FastifyInstance, serverLabel: string, bodyLimitBytes: number, notFoundHooks: RouteHookOptions = {}): void {
  // fastify runs every lifecycle hook given here for the not-found handler, not only the typed pre* ones
  app.setNotFoundHandler(notFoundHooks as Parameters<FastifyInstance['setNotFoundHandler']>[0], (_request: FastifyRequest, reply: FastifyReply) => sendJson(reply.code(404), { detail: 'Not Found' }));
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendJson(reply.code(413), {
        detail: `Request body is larger than ${bodyLimitBytes} bytes. Send less, or raise the server's body limit (bodyLimitBytes).`,
      });
    }
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      const msg = code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'Empty JSON body' : 'JSON decode error';
      return sendJson(reply.code(400), { detail: [{ loc: ['body'], msg, type: 'json_invalid' }] });
    }
    if (error instanceof GymHttpRequestError) return sendErrorJson(reply.code(error.statusCode), { detail: error.detail });
    const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      return sendErrorJson(reply.code(statusCode), { detail: (error as Error).message });
    }
    logInRequestScope(request, () => request.log.error({ err: error }, 'request handler failed'));
    if (error instanceof GymHttpStatusError) {
      // the first failure of the chain travels beside the original's body, up to the collector's failures file
      const cause = error.upstreamCause ?? { status: error.status, method: error.method, url: error.url, server: serverLabel };
      reply.header(UPSTREAM_CAUSE_HEADER, scrubSecrets(encodeUpstreamCause(cause)));
    }
    return sendErrorJson(reply.code(500), internalErrorBody(error, serverLabel));
  });
}

/** Quotes like Python's `repr(str)`: single quotes unless the text holds one and no double quote. */
function pyQuote(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escaped = text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll(quote, `\\${quote}`);
  return `${quote}${escaped}${quote}`;
}
