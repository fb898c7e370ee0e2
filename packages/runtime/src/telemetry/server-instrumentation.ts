/**
 * The SERVER side: one span `<METHOD> <route>` per request, parented to the caller's CLIENT span
 * through the extracted `traceparent`, made current around the handler, ended when the response
 * is sent; `http.server.request.duration` by route, method and status; the trace echoed in a
 * `traceresponse` header to a caller that sent none. All under the `server` group.
 * @module
 */
import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerInstrumentation } from '../server/instrumentation.js';
import { ATTR, TRACE_RESPONSE_HEADER } from './attributes.js';
import { GATES } from './gates.js';
import { rolloutIdIn, withRolloutId } from './rollout-context.js';
import type { GymTelemetry } from './state.js';

const SERVER = GATES.server;
const REQUEST_SPAN = Symbol('gym.telemetry.serverSpan');

interface RequestSpan {
  span: Span;
  ctx: Context;
}
type WithSpan = FastifyRequest & { [REQUEST_SPAN]?: RequestSpan };

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The server instrumentation of `telemetry`. */
export function createServerInstrumentation(telemetry: GymTelemetry): ServerInstrumentation {
  const { api, lens, tracer, instruments } = telemetry;
  return {
    onRequest(request: FastifyRequest, reply: FastifyReply) {
      // liveness probes (`GET /`, polled by the orchestrator and load balancers) would each be a trace of their own
      if (!SERVER.enabled || (request.method === 'GET' && request.routeOptions.url === '/')) return;
      let parent = lens.extractContext(request.headers, api.ROOT_CONTEXT);
      const route = request.routeOptions.url;
      const attributes: Attributes = { [ATTR.HTTP_METHOD]: request.method, [ATTR.URL_PATH]: pathOf(request.url), [ATTR.SERVER_NAME]: telemetry.serverName };
      if (route !== undefined) attributes[ATTR.HTTP_ROUTE] = route;
      const span = tracer.startSpan(route === undefined ? request.method : `${request.method} ${route}`, { kind: api.SpanKind.SERVER, attributes }, parent);
      // the id from an `/ng-rollout/<id>/` URL counts when the caller sent none in its baggage
      let rolloutId = rolloutIdIn(telemetry, parent);
      if (rolloutId === undefined && request.gymRolloutId !== null) {
        rolloutId = request.gymRolloutId;
        parent = withRolloutId(telemetry, parent, rolloutId);
      }
      if (rolloutId !== undefined) span.setAttribute(ATTR.ROLLOUT_ID, rolloutId);
      (request as WithSpan)[REQUEST_SPAN] = { span, ctx: api.trace.setSpan(parent, span) };
      // only a caller that sent no trace context needs to be told which trace it started (measured: a
      // response header costs a few µs, on every internal hop)
      if (api.trace.getSpanContext(parent) === undefined) {
        const { traceId, spanId, traceFlags } = span.spanContext();
        reply.header(TRACE_RESPONSE_HEADER, `00-${traceId}-${spanId}-0${traceFlags & 1}`);
      }
    },
    wrapHandler<T>(request: FastifyRequest, handler: () => Promise<T>): Promise<T> {
      const current = (request as WithSpan)[REQUEST_SPAN];
      return current === undefined ? handler() : api.context.with(current.ctx, handler);
    },
    onResponse(request: FastifyRequest, reply: FastifyReply, durationMs: number) {
      if (!SERVER.enabled) return;
      const status = reply.statusCode;
      const route = request.routeOptions.url;
      instruments.httpServerDuration.record(durationMs / 1000, {
        [ATTR.HTTP_METHOD]: request.method,
        [ATTR.HTTP_STATUS]: status,
        ...(route === undefined ? {} : { [ATTR.HTTP_ROUTE]: route }),
      });
      const current = (request as WithSpan)[REQUEST_SPAN];
      if (current === undefined) return;
      current.span.setAttribute(ATTR.HTTP_STATUS, status);
      if (status >= 500) current.span.setStatus({ code: api.SpanStatusCode.ERROR, message: `HTTP ${status}` });
      current.span.end();
    },
  };
}
