/**
 * A request's logger made when it first logs. fastify gives every request a child of the server's
 * logger (bound to its `reqId`); pino builds one per call, and on the hot path almost no request
 * logs. This stands in for it and makes the real child, with the same bindings and options, when a
 * line is written: the lines are the child's.
 * @module
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

/** The logging methods, each passed on to the real child. */
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A request's logger until it first logs: what makes its child, and the child once made. */
interface Pending {
  parent: FastifyBaseLogger;
  bindings: Bindings;
  options: ChildLoggerOptions;
  made: FastifyBaseLogger | undefined;
}

function childOf(pending: Pending): FastifyBaseLogger {
  return (pending.made ??= pending.parent.child(pending.bindings, pending.options));
}

// the prototype of every stand-in: one function per method, no closure per request
const LAZY: Record<string, unknown> = {
  get level(): string {
    return childOf(this as unknown as Pending).level;
  },
  set level(level: string) {
    childOf(this as unknown as Pending).level = level;
  },
  child(this: Pending, bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return childOf(this).child(bindings, options);
  },
};
for (const level of LEVELS) {
  LAZY[level] = function (this: Pending, ...args: Parameters<FastifyBaseLogger['info']>): void {
    childOf(this)[level](...args);
  };
}

/** fastify's `childLoggerFactory`: a child of `parent` made on first use. */
export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  const pending = Object.create(LAZY) as Pending;
  pending.parent = parent;
  pending.bindings = bindings;
  pending.options = options;
  pending.made = undefined;
  return pending as unknown as FastifyBaseLogger;
}
