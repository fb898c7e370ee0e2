/**
 * A context manager whose active context is the one `with()` set, for the synchronous part of the
 * call only: nothing follows promises. It is what a process gets with `asyncContext: 'explicit'`,
 * where code that crosses an `await` passes its parent on (gym passes a request's scope). Node 20's
 * AsyncLocalStorage runs a hook on every promise of the process once any store is entered — about
 * a tenth of a saturated server's CPU; this manager costs a variable swap per `with()`.
 * @module
 */
import { ROOT_CONTEXT } from '@opentelemetry/api';
import type { Context, ContextManager } from '@opentelemetry/api';

export class SynchronousContextManager implements ContextManager {
  #current: Context | undefined;

  active(): Context {
    return this.#current ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const previous = this.#current;
    this.#current = context;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.#current = previous;
    }
  }

  /** Binds functions (a bound function runs with `context` active); anything else is returned as is. */
  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the bound function runs later, with its own `this`
    const manager = this;
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(context, () => (target as (...a: unknown[]) => unknown).apply(this, args));
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.#current = undefined;
    return this;
  }
}
