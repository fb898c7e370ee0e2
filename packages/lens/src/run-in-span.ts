/**
 * The one place where lens opens a span around a callback: sync or async, errors recorded,
 * the span always ended.
 * @module
 */
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Link, Span, SpanKind, Tracer } from '@opentelemetry/api';
import { safeSetSpanAttributes } from './attributes.js';
import type { LooseAttributes } from './attributes.js';
import { getTracer } from './tracer.js';

/** Options shared by the span primitives. */
export interface SpanOptions {
  /** Tracer to use; default: the global provider's `nemo.lens` tracer. */
  tracer?: Tracer;
  /** Span kind; default INTERNAL. */
  kind?: SpanKind;
  /** Parent context; default the active context. Pass `ROOT_CONTEXT` for a new trace. */
  parent?: Context;
  /** Links to other spans. */
  links?: Link[];
}

/** Marks `span` as failed by `error`: an exception event and ERROR status with the message. */
export function recordSpanError(span: Span, error: unknown): void {
  try {
    if (!span.isRecording()) return;
    const err = error instanceof Error ? error : new Error(String(error));
    span.recordException(err);
    span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
  } catch {
    // instrumentation never breaks the caller
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Starts span `name`, runs `fn(span)` with the span active, and ends the span when `fn` returns —
 * or, when `fn` returns a promise, when it settles. Errors are recorded and rethrown.
 */
export function runInSpan<T>(name: string, fn: (span: Span) => T, attributes: LooseAttributes | undefined, options: SpanOptions | undefined, defaultTracer?: string): T {
  const tracer = options?.tracer ?? getTracer(defaultTracer);
  const parent = options?.parent ?? context.active();
  const span = tracer.startSpan(name, options?.kind === undefined && options?.links === undefined ? undefined : { kind: options.kind, links: options.links }, parent);
  if (attributes !== undefined) safeSetSpanAttributes(span, attributes);
  let result: T;
  try {
    result = context.with(trace.setSpan(parent, span), fn, undefined, span);
  } catch (error) {
    recordSpanError(span, error);
    span.end();
    throw error;
  }
  if (!isPromiseLike(result)) {
    span.end();
    return result;
  }
  return result.then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      recordSpanError(span, error);
      span.end();
      throw error;
    },
  ) as T;
}
