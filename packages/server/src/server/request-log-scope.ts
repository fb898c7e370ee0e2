/**
 * Log lines written for a request after an `await` carry its trace ids only while its trace
 * context is current (trace scopes are passed explicitly, not carried through promises): the
 * server's own error logs go through here.
 * @module
 */
import type { FastifyRequest } from 'fastify';

/** Runs `log` with the request's trace context current, so its lines carry the request's trace ids. */
export function logInRequestScope(request: FastifyRequest, log: () => void): void {
  const instrumentation = request.server.gym.instrumentation;
  if (instrumentation?.inRequestScope === undefined) log();
  else instrumentation.inRequestScope(request, log);
}
