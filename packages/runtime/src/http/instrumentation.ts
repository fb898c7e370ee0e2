/**
 * The seam through which the telemetry layer observes the HTTP client. The client calls it once
 * per logical request, so one CLIENT span `HTTP <METHOD>` can cover all retries.
 * @module
 */
import type { HttpResponse } from './types.js';

/** What an instrumentation sees of a request before it is sent. */
export interface InstrumentedRequest {
  /** Upper-case method, e.g. `POST`. */
  readonly method: string;
  /** URL without the query string. */
  readonly url: string;
  /** Headers the client will send (before the instrumentation adds its own). */
  readonly headers: Readonly<Record<string, string>>;
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
 * Implementations must not throw from `onRetry`; a throw from `wrap` fails the request.
 */
export interface RequestInstrumentation {
  /**
   * Runs around one logical request (all its attempts). `send` performs it; the headers passed to
   * `send` (e.g. `traceparent`) are added to every attempt. Must return (or rethrow) what `send` gives.
   */
  wrap(request: InstrumentedRequest, send: (extraHeaders?: Record<string, string>) => Promise<HttpResponse>): Promise<HttpResponse>;
  /** Called inside `send`, before the backoff sleep of each retry. */
  onRetry?(request: InstrumentedRequest, event: RetryEvent): void;
}
