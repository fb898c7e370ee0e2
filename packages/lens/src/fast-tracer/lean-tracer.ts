/**
 * Starting lean spans. With a lens pipeline set up, spans are {@link LeanSpan}s handed straight to
 * the pipeline's span processors; otherwise (telemetry set up by someone else, or not at all) the
 * same call starts an ordinary span on the global tracer, with the same explicit times.
 * @module
 */
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Attributes, HrTime, Span, SpanContext, SpanKind } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import { nowHrTime } from '../clock.js';
import { LeanSpan } from './lean-span.js';
import type { LeanSpanSink } from './lean-span.js';
import { newSpanId, newTraceId } from './trace-ids.js';

/** What lens's pipeline offers lean spans: where they end, and the sampling decision for a new span. */
export interface LeanPipeline extends LeanSpanSink {
  onStart(span: LeanSpan): void;
  /** Whether a span with this parent (or none) and trace id is sampled. */
  sample(parent: SpanContext | undefined, traceId: string, name: string, kind: SpanKind, attributes: Attributes): boolean;
}

/** A tracer for spans whose parent is given as a span context, not looked up in the active context. */
export interface LeanTracer {
  /**
   * Starts span `name` under `parent` (a remote or local span context; `undefined` starts a trace).
   * `attributes` is taken over: pass a fresh object. The caller ends the span.
   */
  startSpan(name: string, kind: SpanKind, parent: SpanContext | undefined, attributes: Attributes, startTime?: HrTime): Span;
}

let pipeline: LeanPipeline | undefined;
const tracers = new Map<string, LeanTracer>();

/** Installs (or with `undefined`, removes) the pipeline lean spans go to. Called by lens's setup. */
export function setLeanPipeline(next: LeanPipeline | undefined): void {
  pipeline = next;
  tracers.clear();
}

class PipelineTracer implements LeanTracer {
  readonly #scope: InstrumentationScope;
  readonly #pipeline: LeanPipeline;

  constructor(scope: InstrumentationScope, target: LeanPipeline) {
    this.#scope = scope;
    this.#pipeline = target;
  }

  startSpan(name: string, kind: SpanKind, parent: SpanContext | undefined, attributes: Attributes, startTime?: HrTime): Span {
    const traceId = parent?.traceId ?? newTraceId();
    const sampled = this.#pipeline.sample(parent, traceId, name, kind, attributes);
    const context: SpanContext = { traceId, spanId: newSpanId(), traceFlags: sampled ? 1 : 0 };
    // sampled out: a span that only carries its context to children and peers (no attributes, no times)
    if (!sampled) return trace.wrapSpanContext(context);
    const span = new LeanSpan(name, kind, context, parent, attributes, this.#scope, this.#pipeline, startTime);
    this.#pipeline.onStart(span);
    return span;
  }
}

class GlobalTracer implements LeanTracer {
  readonly #scope: InstrumentationScope;

  constructor(scope: InstrumentationScope) {
    this.#scope = scope;
  }

  startSpan(name: string, kind: SpanKind, parent: SpanContext | undefined, attributes: Attributes, startTime?: HrTime): Span {
    const parentContext = parent === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, parent);
    return trace.getTracer(this.#scope.name, this.#scope.version).startSpan(name, { kind, attributes, startTime: startTime ?? nowHrTime() }, parentContext);
  }
}

/** The lean tracer of scope `name`/`version` for the current pipeline. Look it up after setup, not at import. */
export function getLeanTracer(name: string, version?: string): LeanTracer {
  // looked up for every span lens starts: a scope without a version is keyed by its name alone,
  // so the lookup makes no string (a name holding the separator is not a scope anyone writes)
  const key = version === undefined ? name : `${name}\u0000${version}`;
  let tracer = tracers.get(key);
  if (tracer === undefined) {
    const scope: InstrumentationScope = version === undefined ? { name } : { name, version };
    tracer = pipeline === undefined ? new GlobalTracer(scope) : new PipelineTracer(scope, pipeline);
    tracers.set(key, tracer);
  }
  return tracer;
}
