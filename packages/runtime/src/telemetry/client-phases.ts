/**
 * Where a CLIENT span's time went inside the caller, from undici's diagnostics channels: how long
 * the request waited for a connection (pool and event loop), whether it opened one and how long
 * that took, when it was sent, when the answer's headers came and when its body was complete.
 * Requests are matched to their CLIENT span by the span id in the `traceparent` header the
 * instrumentation wrote; requests without one (another library's) are ignored. With no subscriber
 * (telemetry off) undici publishes nothing.
 * @module
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** Phase timestamps of one request, `performance.now()` milliseconds. */
export interface ClientPhases {
  readonly startedAt: number;
  /** When a connection took the request (its headers were written). */
  takenAt?: number;
  /** Time spent opening a new connection for it; 0 when a kept-alive one was reused. */
  connectMs?: number;
  sentAt?: number;
  headersAt?: number;
  doneAt?: number;
}

/** The phases as span attributes (documented in docs/observability/distributed-tracing.md). */
export function phaseAttributes(phases: ClientPhases): Record<string, number | boolean> {
  const attributes: Record<string, number | boolean> = {};
  if (phases.takenAt === undefined) return attributes;
  const offset = (at: number) => Math.round((at - phases.startedAt) * 1000) / 1000;
  const connectMs = phases.connectMs ?? 0;
  attributes['gym.http.phase.queued_ms'] = Math.max(0, offset(phases.takenAt) - connectMs);
  attributes['gym.http.phase.connect_ms'] = Math.round(connectMs * 1000) / 1000;
  attributes['gym.http.connection.reused'] = connectMs === 0;
  if (phases.sentAt !== undefined) attributes['gym.http.phase.sent_at_ms'] = offset(phases.sentAt);
  if (phases.headersAt !== undefined) attributes['gym.http.phase.headers_at_ms'] = offset(phases.headersAt);
  if (phases.doneAt !== undefined) attributes['gym.http.phase.done_at_ms'] = offset(phases.doneAt);
  return attributes;
}

const PHASES = Symbol('gym.clientPhases');
const CONNECTED = Symbol('gym.connectMs');

interface UndiciRequest {
  headers?: unknown;
  [PHASES]?: ClientPhases | null;
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
      ['undici:request:bodySent', (m) => this.#mark((m as { request: UndiciRequest }).request, 'sentAt')],
      ['undici:request:headers', (m) => this.#mark((m as { request: UndiciRequest }).request, 'headersAt')],
      ['undici:request:trailers', (m) => this.#mark((m as { request: UndiciRequest }).request, 'doneAt')],
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

  #sendHeaders(message: { request: UndiciRequest; socket: UndiciSocket }): void {
    const phases = this.#phasesOf(message.request);
    if (phases === undefined) return;
    const now = performance.now();
    phases.takenAt = now;
    phases.sentAt = now;
    // the first request written on a new connection paid for opening it; later ones reuse it
    const connectMs = message.socket[CONNECTED];
    phases.connectMs = connectMs ?? 0;
    if (connectMs !== undefined) message.socket[CONNECTED] = undefined;
    // a retry is a new undici request: the phases are those of the last attempt
    phases.headersAt = undefined;
    phases.doneAt = undefined;
  }

  #mark(request: UndiciRequest, phase: 'sentAt' | 'headersAt' | 'doneAt'): void {
    const phases = this.#phasesOf(request);
    if (phases !== undefined) phases[phase] = performance.now();
  }

  #phasesOf(request: UndiciRequest): ClientPhases | undefined {
    const cached = request[PHASES];
    if (cached !== undefined) return cached ?? undefined;
    const found = this.#lookup(request.headers);
    request[PHASES] = found ?? null;
    return found;
  }

  #lookup(headers: unknown): ClientPhases | undefined {
    if (this.#bySpanId.size === 0 || !Array.isArray(headers)) return undefined;
    // undici keeps headers as a flat [name, value, name, value, …] list
    for (let i = 0; i < headers.length - 1; i += 2) {
      if (headers[i] === 'traceparent') {
        const value = headers[i + 1];
        return typeof value === 'string' ? this.#bySpanId.get(value.slice(36, 52)) : undefined;
      }
    }
    return undefined;
  }
}
