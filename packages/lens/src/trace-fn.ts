/**
 * `traceFn`: wrap a function so every call runs in a gated span.
 * @module
 */
import type { SpanOptions } from './run-in-span.js';
import { runInSpan } from './run-in-span.js';
import { isEnabled } from './managed-span.js';
import { DEFAULT_SCOPE } from './tracer.js';
import type { SpanGroup } from './span-groups.js';

// Kept out of `traced` so the closure it allocates is not paid on the disabled path (measured).
function callInSpan<A extends unknown[], R>(name: string, fn: (...args: A) => R, self: unknown, args: A, options: SpanOptions | undefined): R {
  return runInSpan(name, () => fn.apply(self, args), undefined, options, DEFAULT_SCOPE);
}

/**
 * Returns a decorator: the wrapped function checks `group` at call time and, when enabled, runs
 * inside span `name` (async functions: until their promise settles). Disabled: a direct call.
 * @example
 * const verify = traceFn(VERIFY, 'gym.verify')(async (body: VerifyRequest) => …);
 */
export function traceFn(group: SpanGroup | string, name: string, options?: SpanOptions) {
  return <A extends unknown[], R>(fn: (...args: A) => R): ((...args: A) => R) =>
    function traced(this: unknown, ...args: A): R {
      if (!isEnabled(group)) return fn.apply(this, args);
      return callInSpan(name, fn, this, args, options);
    };
}
