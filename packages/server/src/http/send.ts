/**
 * The attempt loop behind `HttpClient.request`: one logical request, retried per the policy,
 * under one deadline.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { collectResponse } from './collect-response.js';
import type { CollectedResponse } from './collect-response.js';
import type { CookieMap } from './cookies.js';
import type { IncomingHttpHeaders } from 'node:http';
import { parseSetCookie } from './cookies.js';
import { GymHttpAbortedError, GymHttpConnectionError, GymHttpInvalidJsonError, GymHttpStatusError, GymHttpTimeoutError } from './errors.js';
import { decodeUpstreamCause, UPSTREAM_CAUSE_HEADER } from './upstream-cause.js';
import { backoffDelayMs, isConnectionError, retryAfterMs } from './retry-policy.js';
import type { Dispatcher } from 'undici';
import type { RetryEvent } from './instrumentation.js';
import type { RetryPolicy } from './retry-policy.js';
import type { HttpResponse } from './types.js';

/**
 * What undici needs to pipeline a request: `idempotent` (else it never sends a POST behind
 * another) and not `blocking` (else it waits for each answer's headers before sending the next).
 */
const PIPELINED = { idempotent: true, blocking: false } as const;

/** A parsed request URL. */
export interface Target {
  origin: string;
  /** Path and query, as sent on the wire. */
  path: string;
  /** Origin and path without the query string, for errors and telemetry. */
  url: string;
  host: string;
  port: number;
}

/** Everything one logical request needs. */
export interface SendInput {
  pool: Dispatcher;
  target: Target;
  method: string;
  headers: Record<string, string>;
  /** The encoded body, made once per logical request: every attempt sends these same bytes. */
  payload: Buffer | undefined;
  policy: RetryPolicy;
  raw: boolean;
  /** Sent as idempotent, so undici may pipeline it behind others on one socket. */
  pipelined: boolean;
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
}

/** Sends `input`, retrying per its policy; resolves with the answer or throws a `GYM_HTTP_*` error. */
export async function sendWithRetries(input: SendInput, onRetry: ((event: RetryEvent) => void) | undefined): Promise<HttpResponse> {
  const { pool, target, method, policy } = input;
  const timeoutSignal = input.timeoutMs === undefined ? undefined : AbortSignal.timeout(input.timeoutMs);
  const signal = timeoutSignal === undefined ? input.signal : input.signal === undefined ? timeoutSignal : AbortSignal.any([input.signal, timeoutSignal]);

  for (let attempt = 1; ; attempt++) {
    let res: CollectedResponse;
    let doneAt: number;
    try {
      const opts = { path: target.path, method, headers: input.headers, body: input.payload };
      res = await collectResponse(pool, input.pipelined ? { ...opts, ...PIPELINED } : opts, signal);
      doneAt = performance.now();
    } catch (err) {
      if (signal?.aborted) throw abortedError(input, timeoutSignal, err);
      if (!isConnectionError(err)) throw err;
      if (!policy.retryConnectionErrors || attempt >= policy.maxAttempts) {
        throw new GymHttpConnectionError(method, target.url, attempt, { cause: err });
      }
      const delayMs = backoffDelayMs(attempt, policy);
      onRetry?.({ attempt, reason: 'connection', error: err, delayMs });
      await pause(delayMs, signal, input, timeoutSignal);
      continue;
    }

    const status = res.statusCode;
    const text = res.text;
    if (status < 200 || status >= 300) {
      if (attempt < policy.maxAttempts && policy.retryStatuses.includes(status)) {
        const delayMs = retryAfterMs(res.headers['retry-after'], policy.maxDelayMs) ?? backoffDelayMs(attempt, policy);
        onRetry?.({ attempt, reason: 'status', status, delayMs });
        await pause(delayMs, signal, input, timeoutSignal);
        continue;
      }
      if (!input.raw) {
        throw new GymHttpStatusError({
          method,
          url: target.url,
          status,
          bodyText: text,
          body: tryParse(text),
          attempts: attempt,
          headersAt: res.headersAt,
          doneAt,
          upstreamCause: decodeUpstreamCause(res.headers[UPSTREAM_CAUSE_HEADER]),
        });
      }
    }

    let body: unknown;
    if (input.raw) body = tryParse(text);
    else if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch (err) {
        throw new GymHttpInvalidJsonError(method, target.url, status, text, { cause: err });
      }
    }
    return new ClientResponse(res, body, doneAt);
  }
}

/**
 * The answer handed to the caller. `headers` is read through from the collected answer, whose
 * headers object is built only when someone reads it; the `Set-Cookie` values, which every caller
 * merges, are found in the raw list without building it.
 */
class ClientResponse implements HttpResponse {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
  readonly cookies: CookieMap;
  readonly setCookie: string[];
  readonly headersAt: number;
  readonly doneAt: number;
  declare traceId?: string;
  readonly #answer: CollectedResponse;

  constructor(answer: CollectedResponse, body: unknown, doneAt: number) {
    this.#answer = answer;
    this.status = answer.statusCode;
    this.body = body;
    this.text = answer.text;
    this.setCookie = answer.values('set-cookie');
    this.cookies = parseSetCookie(this.setCookie);
    this.headersAt = answer.headersAt;
    this.doneAt = doneAt;
  }

  get headers(): IncomingHttpHeaders {
    return this.#answer.headers;
  }
}

/**
 * The error of a request whose signal fired: its deadline's, else the caller's abort. A function
 * rather than a closure over the attempt loop's variables, which every request in flight would keep.
 */
function abortedError(input: SendInput, timeoutSignal: AbortSignal | undefined, cause: unknown): Error {
  if (timeoutSignal?.aborted) return new GymHttpTimeoutError(input.method, input.target.url, input.timeoutMs ?? 0);
  return new GymHttpAbortedError(input.method, input.target.url, { cause: input.signal?.reason ?? cause });
}

async function pause(delayMs: number, signal: AbortSignal | undefined, input: SendInput, timeoutSignal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(delayMs, undefined, signal === undefined ? undefined : { signal });
  } catch (err) {
    throw abortedError(input, timeoutSignal, err);
  }
}

function tryParse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
