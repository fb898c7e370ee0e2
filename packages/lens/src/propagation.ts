/**
 * W3C context propagation across process boundaries (traceparent, tracestate, baggage).
 * @module
 */
import { context, propagation } from '@opentelemetry/api';
import type { Context, TextMapGetter } from '@opentelemetry/api';

/** A header map as Node's `IncomingHttpHeaders` or a plain carrier dict. */
export type Carrier = Record<string, string | string[] | undefined>;

const getter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const value = carrier[key] ?? carrier[key.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  },
};

/**
 * Writes the context's `traceparent` (and `tracestate` / `baggage` when present) into `carrier`
 * through the global propagator. Before telemetry is set up the propagator is a no-op.
 */
export function injectContext(carrier: Record<string, string>, ctx: Context = context.active()): void {
  try {
    propagation.inject(ctx, carrier);
  } catch {
    // instrumentation never breaks the caller
  }
}

/**
 * Reads a context from `carrier`. Missing or malformed headers give a context with no valid span,
 * so spans started under it begin a fresh trace. Never throws.
 */
export function extractContext(carrier: Carrier, base: Context = context.active()): Context {
  try {
    return propagation.extract(base, carrier, getter);
  } catch {
    return base;
  }
}
