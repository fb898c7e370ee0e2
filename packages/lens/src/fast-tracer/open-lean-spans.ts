/**
 * The lean spans still open, as an intrusive doubly linked list through the spans themselves: a
 * start and an end cost two pointer writes each, with no map entry to hash, allocate or collect.
 * At shutdown the open-span closer ends what is left, marked truncated.
 * @module
 */
import type { LeanSpan } from './lean-span.js';

export class OpenLeanSpans {
  #head: LeanSpan | undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  add(span: LeanSpan): void {
    span.openNext = this.#head;
    if (this.#head !== undefined) this.#head.openPrev = span;
    this.#head = span;
    this.#size++;
  }

  remove(span: LeanSpan): void {
    const { openPrev: prev, openNext: next } = span;
    if (prev === undefined && this.#head !== span) return; // not in the list
    if (prev !== undefined) prev.openNext = next;
    else this.#head = next;
    if (next !== undefined) next.openPrev = prev;
    span.openPrev = undefined;
    span.openNext = undefined;
    this.#size--;
  }

  /** Empties the list and returns its spans, latest started first. */
  takeAll(): LeanSpan[] {
    const spans: LeanSpan[] = [];
    for (let span = this.#head; span !== undefined; span = span.openNext) spans.push(span);
    for (const span of spans) {
      span.openPrev = undefined;
      span.openNext = undefined;
    }
    this.#head = undefined;
    this.#size = 0;
    return spans;
  }
}
