/**
 * `addJsonRoute()`: the one way gym routes are added. It resolves the session, validates the body
 * with zod (422 with field paths; a valid body skips zod when the schema has a plain-code twin,
 * protocol/schema-twin.ts), runs the handler (inside the instrumentation's `wrapHandler`
 * when configured) and sends the result as JSON.
 * @module
 */
import { parseCookieHeader } from '../http/cookies.js';
import { bindHttpClient } from '../http/scoped-client.js';
import { routeHookOptions } from './route-hooks.js';
import { sendJson } from './error-reply.js';
import { resolveSession } from './session.js';
import { toValidationDetail } from './validation.js';
import { twinOf, UNDECIDED } from '../protocol/schema-twin.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { CookieMap } from '../http/cookies.js';
import type { HttpClient } from '../http/types.js';
import type { TraceScope } from '../http/instrumentation.js';
import type { GymEndpoint } from './instrumentation.js';
import type { GymSession } from './session.js';

/** What a route handler gets besides its validated body. */
export interface RouteContext {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The per-server session (signed cookie). */
  session: GymSession;
  /** The id from an `/ng-rollout/<id>/…` URL, else null. */
  rolloutId: string | null;
  /** The cookies the caller sent, e.g. to forward to upstreams. */
  cookies: CookieMap;
  /**
   * Where this request's spans and calls go (telemetry on): pass it as `scope` to `context.http`
   * calls and `gymSpan` made after an `await`, so they stay in the rollout's trace
   * (docs/observability/extending.md). Undefined with telemetry off.
   */
  scope?: TraceScope | undefined;
  /**
   * The process's HTTP client bound to {@link scope}: calls made through it join this request's
   * trace (under the endpoint's span) after an `await` too, with no `scope` passed by hand. A
   * call that names a `scope` of its own keeps it.
   */
  http: HttpClient;
  /**
   * Fires when the caller went away before its answer was sent; pass it to upstream calls. Set
   * for streamed model requests (`stream: true`); absent otherwise.
   */
  signal?: AbortSignal;
}

/** A route handler: validated body in, JSON-serialisable result out (`undefined` sends `null`). */
export type RouteHandler<In, Out = unknown> = (body: In, context: RouteContext) => Out | Promise<Out>;

/** A JSON route. */
export interface JsonRoute<S extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST';
  /** Route path, e.g. `/verify`. */
  path: string;
  /** Body schema; omit to pass the body through unvalidated. */
  input?: S;
  handler: RouteHandler<z.output<S>>;
  /** The gym endpoint this route is, so the instrumentation adds its span and metrics. */
  endpoint?: GymEndpoint;
}

/** Sends a handler's `value` as JSON unless the handler answered by itself (e.g. a stream). */
function finish(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.sent ? reply : sendJson(reply, value);
}

/** {@link finish} once an asynchronous handler's result has settled. */
async function finishWhenSettled(reply: FastifyReply, result: PromiseLike<unknown>): Promise<FastifyReply> {
  return finish(reply, await result);
}

/** Whether `value` is a promise or any other thenable. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** Adds `route` to an app built by `createServerApp`. An empty POST body counts as `{}`. */
export function addJsonRoute<S extends z.ZodType>(app: FastifyInstance, route: JsonRoute<S>): void {
  const { session: sessionConfig, instrumentation } = app.gym;
  // route-level hooks when the instrumentation offers them (span name, attributes and metric
  // series made once, here), else the app-wide hooks with the app-wide handler wrapper
  const hooks = instrumentation?.forRoute?.({ method: route.method, path: route.path, ...(route.endpoint === undefined ? {} : { endpoint: route.endpoint }) });
  const wrap = hooks !== undefined ? hooks.wrapHandler.bind(hooks) : instrumentation?.wrapHandler?.bind(instrumentation);
  const { input } = route;
  // a valid body (every one on the hot path) skips zod when the schema has a plain-code twin
  const twin = input === undefined ? undefined : twinOf(input);
  const state = app.gym;
  const handler = (
    route.endpoint === undefined || instrumentation?.wrapEndpoint === undefined ? route.handler : instrumentation.wrapEndpoint(route.endpoint, route.handler as RouteHandler<Record<string, unknown>>)
  ) as RouteHandler<z.output<S>>;
  /** Validation and the handler, once the session is known; a value, or a promise of one. */
  const serve = (request: FastifyRequest, reply: FastifyReply, session: GymSession, cookies: CookieMap, scope: TraceScope | undefined): unknown => {
    // no body at all is `{}` (as FastAPI's empty model); a literal `null` is refused like a non-object
    let body: unknown = request.body === undefined && route.method === 'POST' ? {} : request.body;
    if (body === null) {
      request.log.warn({ route: route.path }, 'request body is null');
      return sendJson(reply.code(422), { detail: [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' }] });
    }
    const quick = twin === undefined ? UNDECIDED : twin(body);
    if (quick !== UNDECIDED) body = quick;
    else if (input !== undefined) {
      const parsed = input.safeParse(body, { reportInput: true });
      if (!parsed.success) {
        const detail = toValidationDetail(parsed.error.issues);
        request.log.warn({ route: route.path, loc: detail.map((d) => d.loc) }, 'request body failed validation');
        return sendJson(reply.code(422), { detail });
      }
      body = parsed.data;
    }
    const context: RouteContext = { request, reply, session, rolloutId: request.gymRolloutId, cookies, scope, http: bindHttpClient(state.http, scope) };
    return handler(body as z.output<S>, context);
  };
  app.route({
    method: route.method,
    url: route.path,
    ...routeHookOptions(hooks),
    handler: (request, reply) => {
      const cookies = parseCookieHeader(request.headers.cookie);
      const session = resolveSession(cookies, reply, sessionConfig);
      request.session = session;
      // validation runs inside the instrumentation too, so its warning carries the request's trace ids;
      // with none, a synchronous handler is answered without a promise (a throw reaches fastify's error handler all the same)
      const result = wrap === undefined ? serve(request, reply, session, cookies, undefined) : wrap(request, async (scope) => await serve(request, reply, session, cookies, scope));
      if (isThenable(result)) return finishWhenSettled(reply, result);
      // sent (or being sent): returning nothing spares fastify a wait on the reply as a thenable
      finish(reply, result);
      return undefined;
    },
  });
}
