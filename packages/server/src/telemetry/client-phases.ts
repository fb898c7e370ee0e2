/**
 * Where a CLIENT span's time went inside the caller: how long the request waited for a connection
 * (pool and event loop), whether it opened one and how long that took, when it was sent, when the
 * answer's headers came and when its body was complete. The moment a connection took the request
 * and the connects come from undici's diagnostics channels (four channels, one message per request
 * and one per new connection); the answer's times from the HTTP client itself. Requests are
 * matched to their CLIENT span by the span id in the `traceparent` header the instrumentation
 * wrote; requests without one (another library's) are ignored. With no subscriber (telemetry off)
 * undici publishes nothing.
 * @module
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Span } from '@opentelemetry/api';
import { ATTR } from './attributes.js';

/** Phase timestamps of one request, `performance.now()` milliseconds. */
export interface ClientPhases {
  readonly startedAt: number;
  /** When a connection took the request and wrote it (headers and body, one write). */
  takenAt?: number;
  /** Time spent opening a new connection for it; 0 when a kept-alive one was reused. */
  connectMs?: number;
}

/** The times of the answer, from the HTTP client (`performance.now()` ms). */
export interface AnswerTimes {
  headersAt?: number;
  doneAt?: number;
}

/** Milliseconds from `startedAt` to `at`, rounded to the microsecond. */
function offsetMs(at: number, startedAt: number): number {
  return Math.round((at - startedAt) * 1000) / 1000;
}

/**
 * Sets the phases on `span` (attributes documented in docs/observability/distributed-tracing.md).
 * Runs once per CLIENT span: no closure here (under tsx each named closure also costs a
 * `defineProperty` of its name, a top frame of this file in the agent's profile).
 */
export function setPhaseAttributes(span: Span, phases: ClientPhases, answer: AnswerTimes | undefined): void {
  const { startedAt, takenAt } = phases;
  if (takenAt === undefined) return;
  const connectMs = phases.connectMs ?? 0;
  const sentAt = offsetMs(takenAt, startedAt);
  span.setAttribute(ATTR.HTTP_PHASE_QUEUED_MS, Math.max(0, sentAt - connectMs));
  span.setAttribute(ATTR.HTTP_PHASE_CONNECT_MS, Math.round(connectMs * 1000) / 1000);
  span.setAttribute(ATTR.HTTP_CONNECTION_REUSED, connectMs === 0);
  span.setAttribute(ATTR.HTTP_PHASE_SENT_AT_MS, sentAt);
  if (answer?.headersAt !== undefined) span.setAttribute(ATTR.HTTP_PHASE_HEADERS_AT_MS, offsetMs(answer.headersAt, startedAt));
  if (answer?.doneAt !== undefined) span.setAttribute(ATTR.HTTP_PHASE_DONE_AT_MS, offsetMs(answer.doneAt, startedAt));
}

const CONNECTED = Symbol('gym.connectMs');

interface UndiciRequest {
  headers?: unknown;
}
interface UndiciSocket {
  [CONNECTED]?: number;
}

/** Follows the requests of CLIENT spans through undici. One per process; `close()` unsubscribes. */
export class ClientPhaseRecorder {
  readonly #bySpanId = new Map<string, ClientPhases>();
  /** Connects under way, oldest first, per connector (a pool's clients share one). */
  readonly #connectStarts = new WeakMap<object, number[]>();
  readonly #handlers: Array<[string, (message: unknown) => void]>;

  constructor() {
    this.#handlers = [
      // undici publishes a new connectParams object each time, and a pool's clients share one
      // connector: connects are matched to their start first in, first out
      ['undici:client:beforeConnect', (m) => this.#connectStarted((m as { connector: object }).connector)],
      ['undici:client:connected', (m) => this.#connected(m as { connector: object; socket: UndiciSocket })],
      ['undici:client:connectError', (m) => this.#connectStarts.get((m as { connector: object }).connector)?.shift()],
      ['undici:client:sendHeaders', (m) => this.#sendHeaders(m as { request: UndiciRequest; socket: UndiciSocket })],
    ];
    for (const [name, handler] of this.#handlers) subscribe(name, handler);
  }

  /** Starts following the request of the CLIENT span `spanId`, started at `startedAt`. */
  start(spanId: string, startedAt: number): void {
    this.#bySpanId.set(spanId, { startedAt });
  }

  /** Stops following span `spanId` and returns what was seen. */
  finish(spanId: string): ClientPhases | undefined {
    const phases = this.#bySpanId.get(spanId);
    this.#bySpanId.delete(spanId);
    return phases;
  }

  close(): void {
    for (const [name, handler] of this.#handlers) unsubscribe(name, handler);
    this.#bySpanId.clear();
  }

  #connectStarted(connector: object): void {
    const starts = this.#connectStarts.get(connector);
    if (starts === undefined) this.#connectStarts.set(connector, [performance.now()]);
    else starts.push(performance.now());
  }

  #connected(message: { connector: object; socket: UndiciSocket }): void {
    const started = this.#connectStarts.get(message.connector)?.shift();
    if (started !== undefined) message.socket[CONNECTED] = performance.now() - started;
  }

  /**
   * undici wrote the request on a connection (for our string bodies headers and body go in one
   * write, so this is also when it was sent). A retry is a new undici request: the phases are those
   * of the last attempt.
   */
  #sendHeaders(message: { request: UndiciRequest; socket: UndiciSocket }): void {
    const phases = this.#lookup(message.request.headers);
    if (phases === undefined) return;
    phases.takenAt = performance.now();
    // the first request written on a new connection paid for opening it; later ones reuse it
    const connectMs = message.socket[CONNECTED];
    phases.connectMs = connectMs ?? 0;
    if (connectMs !== undefined) message.socket[CONNECTED] = undefined;
  }

  #lookup(headers: unknown): ClientPhases | undefined {
    if (this.#bySpanId.size === 0 || !Array.isArray(headers)) return undefined;
    // undici keeps headers as a flat [name, value, name, value, …] list
    for (let i = 0; i < headers.length - 1; i += 2) {
      if (headers[i] === 'traceparent') {
        const value: unknown = headers[i + 1];
        return typeof value === 'string' ? this.#bySpanId.get(value.slice(36, 52)) : undefined;
      }
    }
    return undefined;
  }
}
