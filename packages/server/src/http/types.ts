/**
 * Request and response types of the HTTP client.
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CookieMap } from './cookies.js';
import type { TraceScope } from './instrumentation.js';
import type { RetryPolicy } from './retry-policy.js';

/** Methods the client sends. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Per-request options of {@link HttpClient}. */
export interface HttpRequestOptions {
  /** Cookies to send, e.g. the caller's cookies the agent forwards. Never stored by the client. */
  cookies?: CookieMap;
  /** Extra request headers (lower-case names recommended). */
  headers?: Record<string, string>;
  /** Aborts the request (all attempts and backoff sleeps). */
  signal?: AbortSignal;
  /** Deadline for the whole logical request, retries included. Overrides the client default. */
  timeoutMs?: number;
  /** Return non-2xx answers instead of throwing, and never fail on a non-JSON body. */
  raw?: boolean;
  /** Overrides of the client's retry policy for this request; `false` sends exactly once. */
  retry?: Partial<RetryPolicy> | false;
  /** The rollout this request belongs to, when the caller knows it and no request context says it (the collector's `/run`). */
  rolloutId?: string;
  /**
   * The upstream is not a gym server (vLLM, OpenAI): it gets the trace context but not gym's
   * baggage — the rollout id stays inside the environment (docs/observability/distributed-tracing.md).
   */
  external?: boolean;
  /** Send the W3C `traceparent` (telemetry on). Default true: it is standard and names no one. */
  traceparent?: boolean;
  /** Send gym's `baggage` (the rollout id). Default: to gym servers only, i.e. `!external`. */
  baggage?: boolean;
  /**
   * The trace scope this call belongs to — `route.scope` in a route handler, the second argument of a
   * `gymSpan` function — so its CLIENT span joins the rollout's trace after an `await` too.
   */
  scope?: TraceScope;
}

/** One logical request, the argument of {@link HttpClient.request}. */
export interface HttpRequest extends HttpRequestOptions {
  method: HttpMethod;
  /** Absolute http(s) URL. */
  url: string;
  /** JSON-encoded when present. */
  body?: unknown;
}

/** The answer to a logical request. */
export interface HttpResponse<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; `undefined` for an empty body (or a non-JSON one with `raw`). */
  body: T;
  /** The raw body text. */
  text: string;
  /** Name → value of every `Set-Cookie`, for the caller to merge into its own cookies. */
  cookies: CookieMap;
  /** The raw `Set-Cookie` values, e.g. to copy onto the caller's own response. */
  setCookie: string[];
  /** The trace this request belongs to, when telemetry traced it (the caller's CLIENT span). */
  traceId?: string;
  /** When the answer's headers arrived (`performance.now()` ms; the last attempt's). */
  headersAt?: number;
  /** When the answer's body was complete (`performance.now()` ms). */
  doneAt?: number;
}

/** The one egress of a gym process. Every server-to-server call goes through {@link HttpClient.request}. */
export interface HttpClient {
  /** Sends one logical request (with retries); throws the `GYM_HTTP_*` errors of `http/errors.ts`. */
  request<T = unknown>(request: HttpRequest): Promise<HttpResponse<T>>;
  /** `request({ method: 'POST', url, body, ...options })`. */
  post<T = unknown>(url: string, body: unknown, options?: HttpRequestOptions): Promise<HttpResponse<T>>;
  /** `request({ method: 'GET', url, ...options })`. */
  get<T = unknown>(url: string, options?: HttpRequestOptions): Promise<HttpResponse<T>>;
  /** Closes every pool after in-flight requests finish. Idempotent: returns the same promise. */
  close(): Promise<void>;
  /** True once `close()` was called. */
  readonly closed: boolean;
}
