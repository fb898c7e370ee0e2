/**
 * `LeanContext`: an OpenTelemetry `Context` as a chain of single entries. The API's own context
 * copies a `Map` and makes three closures on every `setValue`; a request that sets its span and
 * its rollout id, and whose endpoint sets one more span, would hold three such maps for its whole
 * life. Chains here are a few links deep, so a lookup walks them faster than it would hash.
 * @module
 */
import type { Context } from '@opentelemetry/api';

export class LeanContext implements Context {
  readonly #parent: LeanContext | undefined;
  readonly #key: symbol | undefined;
  readonly #value: unknown;
  readonly #deleted: boolean;

  constructor(parent: LeanContext | undefined, key: symbol | undefined, value: unknown, deleted = false) {
    this.#parent = parent;
    this.#key = key;
    this.#value = value;
    this.#deleted = deleted;
  }

  getValue(key: symbol): unknown {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- walks the parent chain, starting here
    for (let context: LeanContext | undefined = this; context !== undefined; context = context.#parent) {
      if (context.#key === key) return context.#deleted ? undefined : context.#value;
    }
    return undefined;
  }

  setValue(key: symbol, value: unknown): Context {
    return new LeanContext(this, key, value);
  }

  deleteValue(key: symbol): Context {
    return new LeanContext(this, key, undefined, true);
  }
}

/** The empty context to build a request's context on: every context derived from it is lean too. */
export const LEAN_ROOT_CONTEXT: Context = new LeanContext(undefined, undefined, undefined);
