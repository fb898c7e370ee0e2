/**
 * `LeanSpan`: a span object of fixed shape for the spans a server makes on every request (SERVER,
 * CLIENT, the endpoint spans). It is both the API `Span` the code under it sees (so SDK child
 * spans, log correlation and `trace.getActiveSpan()` work) and the `ReadableSpan` the SDK's span
 * processors and exporters take at its end. Compared with the SDK's span it skips what such spans
 * do not need — span-limit bookkeeping, clock reconciliation, per-attribute sanitising copies —
 * and takes its times from the lens clock (sub-millisecond, monotonic).
 * @module
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { Attributes, AttributeValue, Exception, HrTime, Link, SpanContext, SpanKind, SpanStatus, TimeInput } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { Span } from '@opentelemetry/api';
import { hrTimeOf, nowHrTime } from '../clock.js';

/** Where a lean span goes when it ends: the SDK span processors of the pipeline. */
export interface LeanSpanSink {
  readonly resource: Resource;
  onEnd(span: LeanSpan): void;
}

/** Attributes per span beyond which further keys are dropped (the SDK's default limit). */
const ATTRIBUTE_COUNT_LIMIT = 128;
const NO_LINKS: Link[] = Object.freeze([]) as unknown as Link[];
const NO_EVENTS: TimedEvent[] = Object.freeze([]) as unknown as TimedEvent[];
const UNSET: SpanStatus = { code: SpanStatusCode.UNSET };

function isAttributeValue(value: unknown): value is AttributeValue {
  const t = typeof value;
  if (t === 'string' || t === 'boolean' || (t === 'number' && !Number.isNaN(value))) return true;
  if (!Array.isArray(value)) return false;
  let kind: string | undefined;
  for (const item of value) {
    if (item === null || item === undefined) continue;
    const itemKind = typeof item;
    if (itemKind !== 'string' && itemKind !== 'number' && itemKind !== 'boolean') return false;
    if (kind !== undefined && itemKind !== kind) return false;
    kind = itemKind;
  }
  return true;
}

export class LeanSpan implements Span, ReadableSpan {
  name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  readonly startTime: HrTime;
  endTime: HrTime = [0, 0];
  status: SpanStatus = UNSET;
  readonly attributes: Attributes;
  links: Link[] = NO_LINKS;
  // shared empty arrays until first used: most spans never get an event or a link
  events: TimedEvent[] = NO_EVENTS;
  ended = false;
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;
  droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly #context: SpanContext;
  readonly #sink: LeanSpanSink | undefined;
  #attributeCount: number;
  /** Neighbours in the pipeline's list of open spans (see open-lean-spans.ts). */
  openPrev: LeanSpan | undefined = undefined;
  openNext: LeanSpan | undefined = undefined;

  /**
   * `attributes` is taken over, not copied: pass a fresh object of valid values. A span without a
   * sink (not sampled) records nothing but still carries its context to children and peers.
   */
  constructor(
    name: string,
    kind: SpanKind,
    context: SpanContext,
    parent: SpanContext | undefined,
    attributes: Attributes,
    scope: InstrumentationScope,
    sink: LeanSpanSink | undefined,
    startTime?: HrTime,
  ) {
    this.name = name;
    this.kind = kind;
    this.#context = context;
    this.parentSpanContext = parent;
    this.attributes = attributes;
    this.#attributeCount = Object.keys(attributes).length;
    this.instrumentationScope = scope;
    this.#sink = sink;
    this.resource = sink?.resource as Resource;
    this.startTime = startTime ?? nowHrTime();
  }

  spanContext(): SpanContext {
    return this.#context;
  }

  get duration(): HrTime {
    let seconds = this.endTime[0] - this.startTime[0];
    let nanos = this.endTime[1] - this.startTime[1];
    if (nanos < 0) {
      seconds -= 1;
      nanos += 1e9;
    }
    return [seconds, nanos];
  }

  isRecording(): boolean {
    return this.#sink !== undefined && !this.ended;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (!this.isRecording() || key.length === 0 || !isAttributeValue(value)) return this;
    if (!(key in this.attributes)) {
      if (this.#attributeCount >= ATTRIBUTE_COUNT_LIMIT) {
        this.droppedAttributesCount++;
        return this;
      }
      this.#attributeCount++;
    }
    this.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) this.setAttribute(key, attributes[key]);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (!this.isRecording()) return this;
    const timeGiven = attributesOrTime instanceof Date || typeof attributesOrTime === 'number' || Array.isArray(attributesOrTime);
    const attributes = timeGiven ? undefined : attributesOrTime;
    const event = { name, attributes, time: hrTimeOf(timeGiven ? attributesOrTime : time), droppedAttributesCount: 0 };
    if (this.events === NO_EVENTS) this.events = [event];
    else this.events.push(event);
    return this;
  }

  addLink(link: Link): this {
    if (this.isRecording()) this.links = [...this.links, link];
    return this;
  }

  addLinks(links: Link[]): this {
    if (this.isRecording()) this.links = [...this.links, ...links];
    return this;
  }

  setStatus(status: SpanStatus): this {
    // as the SDK: OK is final, UNSET never overrides
    if (!this.isRecording() || this.status.code === SpanStatusCode.OK || status.code === SpanStatusCode.UNSET) return this;
    this.status = status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (this.isRecording()) this.name = name;
    return this;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    if (!this.isRecording()) return;
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception !== null && typeof exception === 'object') {
      const { name, message, stack } = exception as { name?: unknown; message?: unknown; stack?: unknown };
      if (typeof name === 'string') attributes['exception.type'] = name;
      if (typeof message === 'string') attributes['exception.message'] = message;
      if (typeof stack === 'string') attributes['exception.stacktrace'] = stack;
    }
    this.addEvent('exception', attributes, time);
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.endTime = hrTimeOf(endTime);
    // a child never outlasts time itself: clamp an end given before the start
    if (this.endTime[0] < this.startTime[0] || (this.endTime[0] === this.startTime[0] && this.endTime[1] < this.startTime[1])) this.endTime = this.startTime;
    this.ended = true;
    this.#sink?.onEnd(this);
  }
}
