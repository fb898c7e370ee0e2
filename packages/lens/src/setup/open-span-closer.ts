/**
 * The open-span closer (docs/lens-setup.md): ends spans still open at telemetry shutdown so a
 * run-wrapping span is exported, marked as truncated, instead of lost.
 * @module
 */
import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR } from '@gym/names';
import { OpenLeanSpans } from '../fast-tracer/open-lean-spans.js';

/** Attribute and event name set on spans ended by the closer. */
export const TRUNCATED = ATTR.TRUNCATED;
/** Attribute on the truncation event carrying the reason. */
export const TRUNCATED_REASON = ATTR.TRUNCATED_REASON;
const REASON = 'still open at telemetry shutdown';

/**
 * A span processor registered before the batch processor. It tracks live spans by span id
 * (`onStart`) and forgets them when they end (`onEnd`); {@link OpenSpanCloser.closeAll} ends the
 * leftovers innermost first with `nemo.span.truncated=true` and a `nemo.span.truncated` event.
 * Status is deliberately left alone. `forceFlush` does nothing: live spans must not end mid-run.
 */
export class OpenSpanCloser implements SpanProcessor {
  #open = new Map<string, Span>();
  #closed = false;
  /** Lean spans, tracked by the lean pipeline without a map entry each. */
  readonly lean = new OpenLeanSpans();

  /** Spans currently tracked as open. */
  get openCount(): number {
    return this.#open.size + this.lean.size;
  }

  onStart(span: Span, _parentContext: Context): void {
    if (this.#closed) return;
    this.#open.set(span.spanContext().spanId, span);
  }

  onEnd(span: ReadableSpan): void {
    this.#open.delete(span.spanContext().spanId);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    this.closeAll();
    return Promise.resolve();
  }

  /** Ends every tracked span, innermost (latest started) first; idempotent; never throws. */
  closeAll(): void {
    if (this.#closed) return;
    this.#closed = true;
    const leftovers: Array<Pick<Span, 'setAttribute' | 'addEvent' | 'end' | 'startTime'>> = [...[...this.#open.values()].reverse(), ...this.lean.takeAll()];
    this.#open.clear();
    // innermost (latest started) first, so a parent ends after its children; the sort is stable and
    // both lists are latest first, so spans started in the same instant keep that order
    leftovers.sort((a, b) => b.startTime[0] - a.startTime[0] || b.startTime[1] - a.startTime[1]);
    for (const span of leftovers) {
      try {
        span.setAttribute(TRUNCATED, true);
        span.addEvent(TRUNCATED, { [TRUNCATED_REASON]: REASON });
        span.end();
      } catch {
        // a span that cannot be ended is lost either way
      }
    }
  }
}
