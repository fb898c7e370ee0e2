/**
 * The SERVER side: one span `<METHOD> <route>` per request, parented to the caller's CLIENT span
 * through `traceparent`, with the rollout id from the caller's `baggage` (or an `/ng-rollout/<id>/`
 * URL) read once onto the request's context; made current around the handler, ended when the
 * response is sent; `http.server.request.duration` by route, method and status; the trace echoed
 * in a `traceresponse` header to a caller that sent none; ended as an error when the caller goes
 * away before the answer was sent. All under the `server` group.
 * @module
 */
import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TraceScope } from '../http/instrumentation.js';
import type { GymEndpoint, ServerInstrumentation } from '../server/instrumentation.js';
import type { RouteHandler } from '../server/json-route.js';
import { ATTR, TRACE_RESPONSE_HEADER } from './attributes.js';
import { endpointWrappers } from './endpoint-spans.js';
import { GATES } from './gates.js';
import { routeDurationSeries } from './route-metrics.js';
import { rolloutIdFromBaggage, withRolloutId } from './rollout-context.js';
import { scopeOf } from './trace-scope.js';
import type { GymTelemetry } from './state.js';

const SERVER = GATES.server;
const SPAN_KIND_SERVER = 1; // SpanKind.SERVER
const REQUEST_SPAN = Symbol('gym.telemetry.serverSpan');

interface RequestSpan {
  span: Span | undefined;
  ctx: Context;
  /** The route template, undefined for a 404. */
  route: string | undefined;
  /** When the reply was handed to the socket (`performance.now()`): the span's end. */
  sentAt?: number;
}
type WithSpan = FastifyRequest & { [REQUEST_SPAN]?: RequestSpan };
type ResponseWithSpan = ServerResponse & { [REQUEST_SPAN]?: RequestSpan };

/** The route template of a request, read once: `routeOptions` is a getter that builds an object. */
function routeOf(request: FastifyRequest): string | undefined {
  return request.is404 ? undefined : request.routeOptions.url;
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The server instrumentation of `telemetry`. */
export function createServerInstrumentation(telemetry: GymTelemetry): ServerInstrumentation {
  const { api, lens, lean, instruments } = telemetry;
  const requests = telemetry.serverRequests;
  // one listener function for every response (no closure per request): 'close' comes once for
  // every response; one that closes before it finished means the caller went away, and fastify's
  // onResponse will never come
  function endIfCallerLeft(this: ResponseWithSpan): void {
    requests.inFlight--;
    const current = this[REQUEST_SPAN];
    if (current?.span === undefined || this.writableFinished) return;
    current.span.setStatus({ code: api.SpanStatusCode.ERROR, message: 'client aborted' });
    current.span.end();
  }
  const durationSeries = routeDurationSeries(instruments.httpServerDuration);
  const wrappers = endpointWrappers(telemetry);
  return {
    onRequest(request: FastifyRequest, reply: FastifyReply) {
      // liveness probes (`GET /`, polled by the orchestrator and load balancers) would each be a trace of their own
      // (the raw URL, not `routeOptions`: fastify builds that object anew on every read)
      if (request.method === 'GET' && request.url === '/') return;
      const parent = lens.parseTraceparent(request.headers.traceparent);
      const rolloutId = rolloutIdFromBaggage(request.headers.baggage) ?? request.gymRolloutId ?? undefined;
      // a lean context: the request holds it (and what its endpoint adds) for its whole life
      const root = lens.LEAN_ROOT_CONTEXT;
      let ctx = root;
      let span: Span | undefined;
      let route: string | undefined;
      if (SERVER.enabled) {
        route = routeOf(request);
        const attributes: Attributes = { [ATTR.HTTP_METHOD]: request.method, [ATTR.URL_PATH]: pathOf(request.url), [ATTR.SERVER_NAME]: telemetry.serverName };
        if (route !== undefined) attributes[ATTR.HTTP_ROUTE] = route;
        if (rolloutId !== undefined) attributes[ATTR.ROLLOUT_ID] = rolloutId;
        span = lean.startSpan(route === undefined ? request.method : `${request.method} ${route}`, SPAN_KIND_SERVER, parent, attributes);
        ctx = api.trace.setSpan(ctx, span);
        // only a caller that sent no trace context needs to be told which trace it started (measured: a
        // response header costs a few µs, on every internal hop)
        if (parent === undefined) reply.header(TRACE_RESPONSE_HEADER, lens.formatTraceparent(span.spanContext()));
        reply.raw.on('close', endIfCallerLeft);
        requests.inFlight++;
      } else if (parent !== undefined) {
        // without its own SERVER span the request's spans join the caller's CLIENT span directly
        ctx = api.trace.setSpanContext(ctx, parent);
      }
      if (rolloutId !== undefined) ctx = withRolloutId(telemetry, ctx, rolloutId);
      // nothing to carry (every group off, no caller context): the request pays nothing more
      if (ctx !== root) {
        const current: RequestSpan = { span, ctx, route };
        (request as WithSpan)[REQUEST_SPAN] = current;
        if (span !== undefined) (reply.raw as ResponseWithSpan)[REQUEST_SPAN] = current;
      }
    },
    wrapHandler<T>(request: FastifyRequest, handler: (scope: TraceScope | undefined) => Promise<T>): Promise<T> {
      const current = (request as WithSpan)[REQUEST_SPAN];
      // the scope goes to the handler as data; `with` makes it current for the synchronous part
      // too (with `async_context: implicit`, through every promise of the handler)
      return current === undefined ? handler(undefined) : api.context.with(current.ctx, handler, undefined, scopeOf(current.ctx));
    },
    inRequestScope<T>(request: FastifyRequest, fn: () => T): T {
      const current = (request as WithSpan)[REQUEST_SPAN];
      return current === undefined ? fn() : api.context.with(current.ctx, fn);
    },
    wrapEndpoint<In extends Record<string, unknown>, Out>(endpoint: GymEndpoint, handler: RouteHandler<In, Out>): RouteHandler<In, Out> {
      return wrappers[endpoint](handler);
    },
    onSend(request: FastifyRequest) {
      const current = (request as WithSpan)[REQUEST_SPAN];
      if (current?.span !== undefined) current.sentAt = performance.now();
    },
    onResponse(request: FastifyRequest, reply: FastifyReply, durationMs: number) {
      // a request whose SERVER span exists (not a liveness probe, and the group was on at its start)
      const current = (request as WithSpan)[REQUEST_SPAN];
      if (current?.span === undefined) return;
      const { span, route, sentAt } = current;
      const status = reply.statusCode;
      durationSeries(request.method, route, status).record(durationMs / 1000);
      span.setAttribute(ATTR.HTTP_STATUS, status);
      if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR, message: `HTTP ${status}` });
      // the caller may have read the whole answer before 'finish' fires here: end where it was sent,
      // so a SERVER span never outlasts its CLIENT parent on one host
      span.end(sentAt === undefined ? undefined : lens.hrTimeAt(sentAt));
    },
  };
}
