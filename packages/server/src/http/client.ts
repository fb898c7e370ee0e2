/**
 * `createHttpClient()`: the one egress of a gym process, on a {@link SpreadingPool} of undici
 * connections per upstream origin (bounded sockets, keep-alive, pipelined only when every socket is
 * busy), explicit per-request cookies, bounded retries.
 * Policy and reasons: `docs/http.md`.
 * @module
 */
import { defaultConnections } from './connection-budget.js';
import { formatCookieHeader } from './cookies.js';
import { GymHttpClientClosedError, GymHttpInvalidUrlError } from './errors.js';
import { DEFAULT_RETRY_POLICY } from './retry-policy.js';
import { sendWithRetries } from './send.js';
import { SpreadingPool } from './spreading-pool.js';
import type { RequestInstrumentation } from './instrumentation.js';
import type { RetryPolicy } from './retry-policy.js';
import type { Target } from './send.js';
import type { HttpClient, HttpMethod, HttpRequest, HttpRequestOptions, HttpResponse } from './types.js';

/** The options of a call that gives none. */
const NO_OPTIONS: HttpRequestOptions = Object.freeze({});

/** Client keep-alive: below the gym server's 30 s, so the server never closes a socket we reuse. */
export const DEFAULT_CLIENT_KEEP_ALIVE_TIMEOUT_MS = 15_000;

/** Options of {@link createHttpClient}. */
export interface HttpClientOptions {
  /** Max sockets per upstream origin; further requests queue in the pool. Default from the open-file limit (`defaultConnections()`, at most 4096). */
  connections?: number;
  /** Requests per socket (HTTP/1.1 pipelining) once every socket is busy. Default 1: wait for a free socket. */
  pipelining?: number;
  /** How long an idle socket is kept. Default {@link DEFAULT_CLIENT_KEEP_ALIVE_TIMEOUT_MS}. */
  keepAliveTimeoutMs?: number;
  /** Default deadline per logical request. Default none: generations can take minutes. */
  timeoutMs?: number;
  /** Overrides of {@link DEFAULT_RETRY_POLICY}. */
  retry?: Partial<RetryPolicy>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Telemetry hook; when absent nothing extra runs. */
  instrument?: RequestInstrumentation;
}

/**
 * Creates the HTTP client. One per process; call `close()` on shutdown.
 * @example
 * const http = createHttpClient();
 * const { body, cookies } = await http.post(`${resources}/seed_session`, row, { cookies: callerCookies });
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  return new PooledHttpClient(options);
}

class PooledHttpClient implements HttpClient {
  readonly #pools = new Map<string, SpreadingPool>();
  readonly #connections: number;
  readonly #pipelining: number;
  readonly #keepAliveTimeoutMs: number;
  readonly #timeoutMs: number | undefined;
  readonly #retry: RetryPolicy;
  readonly #headers: Record<string, string>;
  readonly #instrument: RequestInstrumentation | undefined;
  readonly #targets = new TargetCache();
  #closing: Promise<void> | undefined;

  constructor(options: HttpClientOptions) {
    this.#connections = options.connections ?? defaultConnections();
    this.#pipelining = Math.max(1, options.pipelining ?? 1);
    this.#keepAliveTimeoutMs = options.keepAliveTimeoutMs ?? DEFAULT_CLIENT_KEEP_ALIVE_TIMEOUT_MS;
    this.#timeoutMs = options.timeoutMs;
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#headers = { accept: 'application/json', ...options.headers };
    this.#instrument = options.instrument;
  }

  get closed(): boolean {
    return this.#closing !== undefined;
  }

  // post and get pass their arguments on as they are: no request object is built per call
  post<T>(url: string, body: unknown, options?: HttpRequestOptions): Promise<HttpResponse<T>> {
    return this.#call<T>('POST', url, body, options);
  }

  get<T>(url: string, options?: HttpRequestOptions): Promise<HttpResponse<T>> {
    return this.#call<T>('GET', url, undefined, options);
  }

  request<T>(request: HttpRequest): Promise<HttpResponse<T>> {
    return this.#call<T>(request.method, request.url, request.body, request);
  }

  // not `async`: the promise of the attempt loop is handed back as is, without one more wrapped
  // around it per request; a refusal before sending still arrives as a rejection
  #call<T>(method: HttpMethod, url: string, body: unknown, options: HttpRequestOptions | undefined): Promise<HttpResponse<T>> {
    try {
      return this.#send(method, url, body, options ?? NO_OPTIONS) as Promise<HttpResponse<T>>;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  #send(method: HttpMethod, url: string, body: unknown, request: HttpRequestOptions): Promise<HttpResponse> {
    const target = this.#targets.parse(url);
    if (this.#closing !== undefined) throw new GymHttpClientClosedError(method, target.url);
    const pool = this.#pool(target.origin);
    const headers: Record<string, string> = request.headers === undefined ? { ...this.#headers } : { ...this.#headers, ...request.headers };
    const cookie = formatCookieHeader(request.cookies);
    if (cookie !== undefined) headers.cookie = cookie;
    let payload: Buffer | undefined;
    if (body !== undefined) {
      // encoded once, as bytes: the JSON text dies young, and no attempt converts it again
      payload = Buffer.from(JSON.stringify(body));
      headers['content-type'] = 'application/json';
    }
    const policy = request.retry === false ? { ...this.#retry, maxAttempts: 1 } : request.retry ? { ...this.#retry, ...request.retry } : this.#retry;
    const send = {
      pool,
      target,
      method,
      headers,
      payload,
      policy,
      raw: request.raw === true,
      // undici pipelines only idempotent, non-blocking requests; a pipelining client's POSTs are
      // retried on connection errors anyway, like every gym call (docs/http.md)
      pipelined: this.#pipelining > 1,
      signal: request.signal,
      timeoutMs: request.timeoutMs ?? this.#timeoutMs,
    };
    const instrument = this.#instrument;
    if (instrument === undefined || instrument.enabled === false) return sendWithRetries(send, undefined);
    const info = {
      method,
      url: target.url,
      host: target.host,
      port: target.port,
      rolloutId: request.rolloutId,
      external: request.external === true,
      traceparent: request.traceparent,
      baggage: request.baggage,
      headers,
      scope: request.scope,
    };
    return instrument.wrap(info, (extraHeaders, onRetry) => {
      // `headers` is this request's own object: the trace headers join it, no copies per call
      if (extraHeaders !== undefined) Object.assign(headers, extraHeaders);
      return sendWithRetries(send, onRetry);
    });
  }

  close(): Promise<void> {
    this.#closing ??= Promise.all([...this.#pools.values()].map((pool) => pool.close())).then(() => undefined);
    return this.#closing;
  }

  #pool(origin: string): SpreadingPool {
    let pool = this.#pools.get(origin);
    if (pool === undefined) {
      pool = new SpreadingPool(origin, {
        connections: this.#connections,
        pipelining: this.#pipelining,
        // undici's 300 s defaults would cut long generations; deadlines come from timeoutMs only
        client: { keepAliveTimeout: this.#keepAliveTimeoutMs, headersTimeout: 0, bodyTimeout: 0 },
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }
}

/**
 * Parsed request URLs by their text. A process calls the same few URLs over and over (its
 * upstreams' routes), and a `URL` parse per request was a visible share of what a request
 * allocates. Bounded: URLs that differ per rollout (an `/ng-rollout/<id>` prefix) start it afresh
 * once it is full.
 */
class TargetCache {
  static readonly MAX_ENTRIES = 512;
  #targets = new Map<string, Target>();

  parse(url: string): Target {
    let target = this.#targets.get(url);
    if (target === undefined) {
      target = parseTarget(url);
      if (this.#targets.size >= TargetCache.MAX_ENTRIES) this.#targets = new Map();
      this.#targets.set(url, target);
    }
    return target;
  }
}

function parseTarget(url: string): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GymHttpInvalidUrlError(url);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new GymHttpInvalidUrlError(url);
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  return { origin: parsed.origin, path: parsed.pathname + parsed.search, url: parsed.origin + parsed.pathname, host: parsed.hostname, port };
}
