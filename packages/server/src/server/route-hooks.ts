/**
 * The fastify hooks of one route's instrumentation (see `ServerInstrumentation.forRoute`): set on
 * the route itself, so a request runs only its own route's hooks, each guarded so that telemetry
 * never fails a request.
 * @module
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { RouteInstrumentation } from './instrumentation.js';

/** The route options that install `hooks` (none without an instrumentation). */
export interface RouteHookOptions {
  onRequest?: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;
  onSend?: (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload: unknown) => void) => void;
  onResponse?: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;
}

/** Fastify route-level hooks running `hooks`; a throw is logged and the request goes on. */
export function routeHookOptions(hooks: RouteInstrumentation | undefined): RouteHookOptions {
  if (hooks === undefined) return {};
  return {
    onRequest(request, reply, done) {
      try {
        hooks.onRequest(request, reply);
      } catch (err) {
        request.log.warn({ err }, 'server instrumentation onRequest failed');
      }
      done();
    },
    onSend(request, reply, payload, done) {
      try {
        hooks.onSend(request, reply);
      } catch (err) {
        request.log.warn({ err }, 'server instrumentation onSend failed');
      }
      done(null, payload);
    },
    onResponse(request, reply, done) {
      try {
        hooks.onResponse(request, reply);
      } catch (err) {
        request.log.warn({ err }, 'server instrumentation onResponse failed');
      }
      done();
    },
  };
}
