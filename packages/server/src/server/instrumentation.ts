/**
 * The seam through which the telemetry layer observes the server ingress: the SERVER span
 * `<METHOD> <route>` and `http.server.request.duration` are added here, in one place.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TraceScope } from '../http/instrumentation.js';
import type { RouteHandler } from './json-route.js';

/** The endpoints whose handlers carry a span and metrics of their own (`gym.rollout`, …). */
export type GymEndpoint = 'rollout' | 'agent_responses' | 'model_responses' | 'model_chat_completions' | 'model_messages' | 'verify';

/** A route as the instrumentation sees it when the route is added. */
export interface InstrumentedRoute {
  /** Upper-case method; `undefined` for the not-found handler, which answers every method. */
  readonly method: string | undefined;
  /** The route template, e.g. `/verify`; `undefined` for the not-found handler. */
  readonly path: string | undefined;
  /** The gym endpoint the route is, if any. */
  readonly endpoint?: GymEndpoint;
}

/**
 * The instrumentation of one route, made once when the route is added (its span name, attribute
 * template and metric series computed then) and run as that route's own fastify hooks. A throw
 * from a hook is caught and logged, never failing the request.
 */
export interface RouteInstrumentation {
  onRequest(request: FastifyRequest, reply: FastifyReply): void;
  onSend(request: FastifyRequest, reply: FastifyReply): void;
  onResponse(request: FastifyRequest, reply: FastifyReply): void;
  /** As {@link ServerInstrumentation.wrapHandler}, for this route's requests. */
  wrapHandler<T>(request: FastifyRequest, handler: (scope: TraceScope | undefined) => Promise<T>): Promise<T>;
}

/**
 * Implemented by the telemetry layer. Each member is optional; with no instrumentation configured
 * no hook is registered and nothing extra runs. A throw from `onRequest`/`onResponse` is caught
 * and logged, never failing the request.
 */
export interface ServerInstrumentation {
  /**
   * The hooks of one route, set up by `addJsonRoute` (and for the not-found handler): when
   * present, the app-wide `onRequest`/`onSend`/`onResponse`/`wrapHandler` below are not installed
   * and each route pays only for its own hooks.
   */
  forRoute?(route: InstrumentedRoute): RouteInstrumentation;
  /** Called first for every request (after the `/ng-rollout/<id>` prefix was stripped). May set reply headers. */
  onRequest?(request: FastifyRequest, reply: FastifyReply): void;
  /** Called when the reply is about to be written: the moment the caller can start reading it. */
  onSend?(request: FastifyRequest, reply: FastifyReply): void;
  /**
   * Called once the response was sent. `request.routeOptions.url` is the route template
   * (undefined for a 404); `reply.statusCode` the status.
   */
  onResponse?(request: FastifyRequest, reply: FastifyReply, durationMs: number): void;
  /** Runs around each gym route's body validation and handler, giving it the request's trace scope (and making it current while it runs synchronously). */
  wrapHandler?<T>(request: FastifyRequest, handler: (scope: TraceScope | undefined) => Promise<T>): Promise<T>;
  /** Runs `fn` with the request's trace context current (synchronously): its log lines carry the request's trace ids. */
  inRequestScope?<T>(request: FastifyRequest, fn: () => T): T;
  /** Wraps the handler of a gym endpoint once, when its route is added (its endpoint span and metrics). */
  wrapEndpoint?<In extends Record<string, unknown>, Out>(endpoint: GymEndpoint, handler: RouteHandler<In, Out>): RouteHandler<In, Out>;
}
