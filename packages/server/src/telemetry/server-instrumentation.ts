/**
 * The SERVER side: one span `<METHOD> <route>` per request, parented to the caller's CLIENT span
 * through `traceparent`, with the rollout id from the caller's `baggage` (or an `/ng-rollout/<id>/`
 * URL) read once onto the request's context; made current around the handler, ended when the
 * response is sent; `http.server.request.duration` by route, method and status; the trace echoed
 * in a `traceresponse` header to a caller that sent none; ended as an error when the caller goes
 * away before the answer was sent. All under the `server` group. gym's routes get these as
 * route-level hooks (`forRoute`), with their span name, attribute template and metric series made
 * once per route; the app-wide hooks remain for apps that install them.
 * @module
 */
import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { BoundHistogram } from '@gym/lens';
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TraceScope } from '../http/instrumentation.js';
import type { GymEndpoint, InstrumentedRoute, RouteInstrumentation, ServerInstrumentation } from '../server/instrumentation.js';
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

/** A request's telemetry, in its `gymTrace` slot (declared on every request by the app). */
interface RequestSpan {
  span: Span | undefined;
  ctx: Context;
  /** The route's plan: its series for the duration metric. */
  plan: RoutePlan;
  /** When the reply was handed to the socket (`performance.now()`): the span's end. */
  sentAt?: number;
}
type ResponseWithSpan = ServerResponse & { [REQUEST_SPAN]?: RequestSpan };

/** What is the same for every request of one route, made once. */
interface RoutePlan {
  /** The route template, undefined for a 404. */
  route: string | undefined;
  /** The span name; undefined: the request's method (a 404, whose method varies). */
  spanName: string | undefined;
  /** The span's attributes that never change for the route (copied per request, then added to). */
  template: Attributes | undefined;
  /** `http.server.request.duration` of this route by status. */
  series(method: string, status: number): BoundHistogram;
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

  function planOf(method: string | undefined, route: string | undefined): RoutePlan {
    if (method === undefined || route === undefined) {
      return { route, spanName: undefined, template: undefined, series: (m, status) => durationSeries(m, route, status) };
    }
    const byStatus = new Map<number, BoundHistogram>();
    return {
      route,
      spanName: `${method} ${route}`,
      // gym's routes have no parameters: the path of every request of the route is its template
      template: { [ATTR.HTTP_METHOD]: method, [ATTR.URL_PATH]: route, [ATTR.SERVER_NAME]: telemetry.serverName, [ATTR.HTTP_ROUTE]: route },
      series: (_m, status) => {
        let series = byStatus.get(status);
        if (series === undefined) {
          series = durationSeries(method, route, status);
          byStatus.set(status, series);
        }
        return series;
      },
    };
  }
  // the app-wide hooks look the plan up per request (fastify builds `routeOptions` anew on every read)
  const appWidePlans = new Map<string, RoutePlan>();
  function appWidePlan(request: FastifyRequest): RoutePlan {
    const route = request.is404 ? undefined : request.routeOptions.url;
    const key = route === undefined ? '' : `${request.method} ${route}`;
    let plan = appWidePlans.get(key);
    if (plan === undefined) {
      plan = planOf(route === undefined ? undefined : request.method, route);
      if (appWidePlans.size < 1024) appWidePlans.set(key, plan);
    }
    return plan;
  }

  function onRequest(request: FastifyRequest, reply: FastifyReply, plan: RoutePlan): void {
    const parent = lens.parseTraceparent(request.headers.traceparent);
    const rolloutId = rolloutIdFromBaggage(request.headers.baggage) ?? request.gymRolloutId ?? undefined;
    // a lean context: the request holds it (and what its endpoint adds) for its whole life
    const root = lens.LEAN_ROOT_CONTEXT;
    let ctx = root;
    let span: Span | undefined;
    if (SERVER.enabled) {
      let attributes: Attributes;
      if (plan.template !== undefined) attributes = { ...plan.template };
      else {
        attributes = { [ATTR.HTTP_METHOD]: request.method, [ATTR.URL_PATH]: pathOf(request.url), [ATTR.SERVER_NAME]: telemetry.serverName };
        if (plan.route !== undefined) attributes[ATTR.HTTP_ROUTE] = plan.route;
      }
      if (rolloutId !== undefined) attributes[ATTR.ROLLOUT_ID] = rolloutId;
      span = lean.startSpan(plan.spanName ?? request.method, SPAN_KIND_SERVER, parent, attributes);
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
      const current: RequestSpan = { span, ctx, plan, sentAt: undefined };
      request.gymTrace = current;
      if (span !== undefined) (reply.raw as ResponseWithSpan)[REQUEST_SPAN] = current;
    }
  }

  function wrapHandler<T>(request: FastifyRequest, handler: (scope: TraceScope | undefined) => Promise<T>): Promise<T> {
    const current = request.gymTrace as RequestSpan | null | undefined;
    // the scope goes to the handler as data; `with` makes it current for the synchronous part
    // too (with `async_context: implicit`, through every promise of the handler)
    return current == null ? handler(undefined) : api.context.with(current.ctx, handler, undefined, scopeOf(current.ctx));
  }

  function onSend(request: FastifyRequest): void {
    const current = request.gymTrace as RequestSpan | null | undefined;
    if (current?.span !== undefined) current.sentAt = performance.now();
  }

  function onResponse(request: FastifyRequest, reply: FastifyReply): void {
    // a request whose SERVER span exists (not a liveness probe, and the group was on at its start)
    const current = request.gymTrace as RequestSpan | null | undefined;
    if (current?.span === undefined) return;
    const { span, plan, sentAt } = current;
    const status = reply.statusCode;
    plan.series(request.method, status).record(reply.elapsedTime / 1000);
    span.setAttribute(ATTR.HTTP_STATUS, status);
    if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR, message: `HTTP ${status}` });
    // the caller may have read the whole answer before 'finish' fires here: end where it was sent,
    // so a SERVER span never outlasts its CLIENT parent on one host
    span.end(sentAt === undefined ? undefined : lens.hrTimeAt(sentAt));
  }

  return {
    forRoute(route: InstrumentedRoute): RouteInstrumentation {
      const plan = planOf(route.method, route.path);
      const isNotFound = route.path === undefined;
      return {
        onRequest(request, reply) {
          // liveness probes (`GET /`, polled by the orchestrator and load balancers) would each be a trace of their own
          if (isNotFound && request.method === 'GET' && request.url === '/') return;
          onRequest(request, reply, plan);
        },
        onSend,
        onResponse,
        wrapHandler,
      };
    },
    onRequest(request: FastifyRequest, reply: FastifyReply) {
      // (the raw URL, not `routeOptions`: fastify builds that object anew on every read)
      if (request.method === 'GET' && request.url === '/') return;
      onRequest(request, reply, appWidePlan(request));
    },
    wrapHandler,
    inRequestScope<T>(request: FastifyRequest, fn: () => T): T {
      const current = request.gymTrace as RequestSpan | null | undefined;
      return current == null ? fn() : api.context.with(current.ctx, fn);
    },
    wrapEndpoint<In extends Record<string, unknown>, Out>(endpoint: GymEndpoint, handler: RouteHandler<In, Out>): RouteHandler<In, Out> {
      return wrappers[endpoint](handler);
    },
    onSend,
    onResponse,
  };
}
