/**
 * The seam through which the telemetry layer observes the HTTP client. The client calls it once
 * per logical request, so one CLIENT span `HTTP <METHOD>` can cover all retries.
 * @module
 */
import type { HttpResponse } from './types.js';

/**
 * Where the spans and calls made for one request go (its trace context), as the telemetry layer
 * hands it out: on `RouteContext.scope`, and as the second argument of `gymSpan`'s function.
 * Opaque: pass it on (`scope` of a request's options, of `gymSpan`), never look inside.
 */
export interface TraceScope {
  readonly __gymTraceScope: never;
}

/** What an instrumentation sees of a request before it is sent. */
export interface InstrumentedRequest {
  /** Upper-case method, e.g. `POST`. */
  readonly method: string;
  /** URL without the query string. */
  readonly url: string;
  /** Host name and port of the URL (`server.address`, `server.port`). */
  readonly host: string;
  readonly port: number;
  /** The rollout id the caller gave with the request, if any. */
  readonly rolloutId?: string;
  /** True for an upstream that is not a gym server: no gym baggage for it. */
  readonly external?: boolean;
  /** False: send no `traceparent` (a third party the user does not want it sent to). */
  readonly traceparent?: boolean;
  /** True: send gym's baggage even to an external upstream (configured); false: never. */
  readonly baggage?: boolean;
  /** Headers the client will send (before the instrumentation adds its own). */
  readonly headers: Readonly<Record<string, string>>;
  /** The scope the caller passed: the request's span is a child of it. */
  readonly scope: TraceScope | undefined;
}

/** One failed attempt that will be retried. */
export interface RetryEvent {
  /** The 1-based number of the attempt that failed. */
  readonly attempt: number;
  /** `connection` for a transport failure, `status` for a retryable status. */
  readonly reason: 'connection' | 'status';
  /** The status, when `reason` is `status`. */
  readonly status?: number;
  /** The transport error, when `reason` is `connection`. */
  readonly error?: unknown;
  /** How long the client waits before the next attempt. */
  readonly delayMs: number;
}

/**
 * Implemented by the telemetry layer. Without one, the client calls nothing extra.
 * A throw from `wrap` fails the request; the retry callback must not throw.
 */
export interface RequestInstrumentation {
  /**
   * False while the instrumentation would add nothing (its span group is off): the client then
   * sends without describing the request or calling `wrap`. Absent: `wrap` is always called.
   */
  readonly enabled?: boolean;
  /**
   * Runs around one logical request (all its attempts). `send` performs it: the headers passed to
   * it (e.g. `traceparent`) are added to every attempt, and `onRetry` is called before the backoff
   * sleep of each retry. Must return (or rethrow) what `send` gives.
   */
  wrap(request: InstrumentedRequest, send: (extraHeaders?: Record<string, string>, onRetry?: (event: RetryEvent) => void) => Promise<HttpResponse>): Promise<HttpResponse>;
}

/**
 * `instrument` with `scope` as the scope of every request that names none: for a process whose
 * calls all share one scope (the collector's: each call a trace of its own, linked to `gym.job`).
 */
export function withDefaultScope(instrument: RequestInstrumentation, scope: TraceScope | undefined): RequestInstrumentation {
  if (scope === undefined) return instrument;
  return {
    get enabled() {
      return instrument.enabled;
    },
    wrap: (request, send) => instrument.wrap(request.scope === undefined ? { ...request, scope } : request, send),
  };
}
