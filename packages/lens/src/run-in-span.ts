/**
 * The one place where lens opens a span around a callback: sync or async, errors recorded,
 * the span always ended.
 * @module
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, HrTime, Link, Span, Tracer } from '@opentelemetry/api';
import { safeSetSpanAttributes, toAttributeValue } from './attributes.js';
import type { LooseAttributes } from './attributes.js';
import { nowHrTime } from './clock.js';
import { getLeanTracer } from './fast-tracer/lean-tracer.js';
import type { LeanTracer } from './fast-tracer/lean-tracer.js';
import { hasStringScrubber, scrubString } from './scrub.js';

/** Options shared by the span primitives. */
export interface SpanOptions {
  /** Tracer to use; default: lens's own (lean) spans of instrumentation scope `scope`. */
  tracer?: Tracer;
  /** Instrumentation scope of the span when no tracer is given; default `nemo.lens.helpers`. */
  scope?: string;
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
    if (!hasStringScrubber()) {
      span.recordException(err);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
      return;
    }
    // an upstream error may echo a key: the recorded text is scrubbed, the error itself untouched
    const message = scrubString(err.message);
    span.recordException({ name: err.name, message, ...(err.stack === undefined ? {} : { stack: scrubString(err.stack) }) });
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  } catch {
    // instrumentation never breaks the caller
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

/** Copies the valid, redacted attribute values into a fresh object. */
export function cleanAttributes(attributes: LooseAttributes | undefined): Attributes {
  const clean: Attributes = {};
  if (attributes === undefined) return clean;
  for (const key in attributes) {
    const value = toAttributeValue(key, attributes[key]);
    if (value !== undefined) clean[key] = value;
  }
  return clean;
}

/**
 * Starts a span under `parent`: a lean span of scope `options.scope ?? defaultScope`, or with
 * `options.tracer` an ordinary one. Times come from the lens clock (sub-millisecond), so spans of
 * one process nest exactly.
 */
export function startSpanAt(name: string, parent: Context, attributes: LooseAttributes | undefined, options: SpanOptions | undefined, defaultScope: string, startTime: HrTime = nowHrTime()): Span {
  if (options?.tracer !== undefined) {
    const span = options.tracer.startSpan(name, { kind: options.kind, links: options.links, startTime }, parent);
    if (attributes !== undefined) safeSetSpanAttributes(span, attributes);
    return span;
  }
  const parentSpan = trace.getSpanContext(parent);
  const span = getLeanTracer(options?.scope ?? defaultScope).startSpan(
    name,
    options?.kind ?? SpanKind.INTERNAL,
    parentSpan !== undefined && trace.isSpanContextValid(parentSpan) ? parentSpan : undefined,
    cleanAttributes(attributes),
    startTime,
  );
  if (options?.links !== undefined) span.addLinks(options.links);
  return span;
}

/**
 * Starts span `name`, runs `fn(span)` with the span active, and ends the span when `fn` returns —
 * or, when `fn` returns a promise, when it settles. Errors are recorded and rethrown.
 */
export function runInSpan<T>(name: string, fn: (span: Span) => T, attributes: LooseAttributes | undefined, options: SpanOptions | undefined, defaultScope: string): T {
  const parent = options?.parent ?? context.active();
  return runWithSpan(startSpanAt(name, parent, attributes, options, defaultScope), parent, fn);
}

/**
 * Runs `fn` inside INTERNAL span `name` of the lean `tracer`, a child of the span in `parent`, with
 * `attributes` taken over as they are: for instrumentation whose attribute keys and values are its
 * own (valid, nothing to redact), so no copy is made. Ends and records errors as {@link runInSpan}.
 */
export function runInOwnSpan<T>(tracer: LeanTracer, name: string, attributes: Attributes, parent: Context, fn: (span: Span) => T): T {
  const parentSpan = trace.getSpanContext(parent);
  const span = tracer.startSpan(name, SpanKind.INTERNAL, parentSpan !== undefined && trace.isSpanContextValid(parentSpan) ? parentSpan : undefined, attributes, nowHrTime());
  return runWithSpan(span, parent, fn);
}

/** Runs `fn(span)` with `span` current under `parent`, ending it when `fn` returns or its promise settles. */
function runWithSpan<T>(span: Span, parent: Context, fn: (span: Span) => T): T {
  let result: T;
  try {
    result = context.with(trace.setSpan(parent, span), fn, undefined, span);
  } catch (error) {
    recordSpanError(span, error);
    span.end(nowHrTime());
    throw error;
  }
  if (!isPromiseLike(result)) {
    span.end(nowHrTime());
    return result;
  }
  return result.then(
    (value) => {
      span.end(nowHrTime());
      return value;
    },
    (error: unknown) => {
      recordSpanError(span, error);
      span.end(nowHrTime());
      throw error;
    },
  ) as T;
}
