/**
 * The client's retry policy: which failures are retried, how often, and how long to wait.
 * The reasoning is in `docs/http.md` ("Retries").
 * @module
 */

/** How the client retries one logical request. */
export interface RetryPolicy {
  /** Total attempts including the first; 1 disables retries. Default 5. */
  maxAttempts: number;
  /** Backoff before the first retry, doubled per retry. Default 250 ms. */
  baseDelayMs: number;
  /** Upper bound on one backoff sleep (and on an honoured `Retry-After`). Default 8000 ms. */
  maxDelayMs: number;
  /** Statuses that are retried. Default 429, 502, 503, 504, 520 (the original's "rate limit" set). */
  retryStatuses: readonly number[];
  /**
   * Retry connection failures (refused, reset, closed before a response). Default true, for every
   * method including POST: see docs/http.md ("Idempotency").
   */
  retryConnectionErrors: boolean;
}

/** The defaults described on {@link RetryPolicy}. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  retryStatuses: Object.freeze([429, 502, 503, 504, 520]),
  retryConnectionErrors: true,
});

/** Error codes (node `net` and undici) meaning "the connection failed", not "the server said no". */
const CONNECTION_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** True when `err` is a transport failure that a retry may cure. */
export function isConnectionError(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
  // happy-eyeballs connects (`localhost` → ::1 and 127.0.0.1) fail with an AggregateError
  const errors = (err as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every(isConnectionError);
}

/**
 * Backoff before retry number `retry` (1-based): exponential with "equal jitter", i.e. uniformly
 * in [cap/2, cap] where cap = min(maxDelayMs, baseDelayMs · 2^(retry-1)). Half the cap is kept so
 * the delay always grows; the random half spreads a burst of clients apart.
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return cap / 2 + random() * (cap / 2);
}

/**
 * The delay a `Retry-After` header asks for, in ms (seconds or an HTTP date), capped at
 * `maxDelayMs`; `undefined` when absent or unparsable.
 */
export function retryAfterMs(header: string | string[] | undefined, maxDelayMs: number, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), maxDelayMs);
}
