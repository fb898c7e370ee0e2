/**
 * The HTTP client of gym: every server-to-server call goes through {@link createHttpClient}.
 * @module
 */
export { createHttpClient, DEFAULT_CLIENT_KEEP_ALIVE_TIMEOUT_MS } from './client.js';
export { defaultConnections, MAX_DEFAULT_CONNECTIONS, openFileLimit, socketsFor } from './connection-budget.js';
export type { HttpClientOptions } from './client.js';
export type { HttpClient, HttpMethod, HttpRequest, HttpRequestOptions, HttpResponse } from './types.js';
export type { InstrumentedRequest, RequestInstrumentation, RetryEvent, TraceScope } from './instrumentation.js';
export { DEFAULT_RETRY_POLICY, backoffDelayMs, isConnectionError, retryAfterMs } from './retry-policy.js';
export type { RetryPolicy } from './retry-policy.js';
export { formatCookieHeader, parseCookieHeader, parseSetCookie } from './cookies.js';
export type { CookieMap } from './cookies.js';
export {
  GymHttpAbortedError,
  GymHttpClientClosedError,
  GymHttpConnectionError,
  GymHttpInvalidJsonError,
  GymHttpInvalidRouteError,
  GymHttpInvalidUrlError,
  GymHttpRequestError,
  GymHttpStatusError,
  GymHttpTimeoutError,
} from './errors.js';
export type { HttpStatusErrorInit } from './errors.js';
