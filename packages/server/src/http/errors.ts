/**
 * Error classes of the HTTP layer (client and server ingress), built from their rows of the
 * runtime's table (error-codes.ts: kind, message template). Codes are `GYM_HTTP_*` and are
 * catalogued in `docs/errors-http.md`.
 * @module
 */
import { gymErrorClass, gymMessage } from '../error-class.js';
import type { GymErrorOptions } from '../errors.js';
import type { UpstreamCause } from './upstream-cause.js';

/** What {@link GymHttpStatusError} is built from. */
export interface HttpStatusErrorInit {
  method: string;
  /** Request URL without query string (query strings may carry keys). */
  url: string;
  status: number;
  /** Raw response body text. */
  bodyText: string;
  /** Parsed JSON body, or `undefined` when the body is not JSON. */
  body: unknown;
  attempts: number;
  /** When the answer's headers arrived and its body was complete (`performance.now()` ms). */
  headersAt?: number;
  doneAt?: number;
  /** The first failure of the chain, when the answering gym server stated it (upstream-cause.ts). */
  upstreamCause?: UpstreamCause | undefined;
}

/**
 * An upstream answered with a non-2xx status. `code` is always `GYM_HTTP_STATUS`, whatever the body
 * says: a caller switching on `err.code` must see what happened here (a call failed), not what
 * happened in another process. The upstream's own code, `GYM_*` or not, is `upstreamCode`.
 */
export class GymHttpStatusError extends gymErrorClass('GYM_HTTP_STATUS') {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly bodyText: string;
  readonly body: unknown;
  /** `error.code` from an `{"error":{code,message}}` body, whatever its style (never adopted as `code`). */
  readonly upstreamCode: string | undefined;
  /** `error.message` from an `{"error":{code,message}}` body, or the `detail` of a FastAPI-style body. */
  readonly upstreamMessage: string | undefined;
  readonly attempts: number;
  /** When the answer's headers arrived and its body was complete (`performance.now()` ms). */
  readonly headersAt: number | undefined;
  readonly doneAt: number | undefined;
  /** The first failure of the chain, when the answering gym server stated it. */
  readonly upstreamCause: UpstreamCause | undefined;

  constructor(init: HttpStatusErrorInit) {
    const { upstreamCode, upstreamMessage } = readErrorBody(init.body);
    const what = upstreamMessage ?? truncate(init.bodyText, 300);
    super(gymMessage('GYM_HTTP_STATUS', init.method, init.url, init.status, what ? `: ${what}` : ''));
    this.method = init.method;
    this.url = init.url;
    this.status = init.status;
    this.bodyText = init.bodyText;
    this.body = init.body;
    this.upstreamCode = upstreamCode;
    this.upstreamMessage = upstreamMessage;
    this.attempts = init.attempts;
    this.headersAt = init.headersAt;
    this.doneAt = init.doneAt;
    this.upstreamCause = init.upstreamCause;
  }
}

/** The connection failed (refused, reset, closed mid-response) on every allowed attempt. */
export class GymHttpConnectionError extends gymErrorClass('GYM_HTTP_CONNECTION') {
  readonly url: string;
  readonly attempts: number;

  constructor(method: string, url: string, attempts: number, options: GymErrorOptions = {}) {
    const reason = options.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(gymMessage('GYM_HTTP_CONNECTION', method, url, attempts, reason), options);
    this.url = url;
    this.attempts = attempts;
  }
}

/** The request did not finish within its `timeoutMs` (which covers all attempts). */
export class GymHttpTimeoutError extends gymErrorClass('GYM_HTTP_TIMEOUT') {
  readonly url: string;
  readonly timeoutMs: number;

  constructor(method: string, url: string, timeoutMs: number) {
    super(gymMessage('GYM_HTTP_TIMEOUT', method, url, timeoutMs));
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's `signal` aborted the request. */
export class GymHttpAbortedError extends gymErrorClass('GYM_HTTP_ABORTED') {
  readonly url: string;

  constructor(method: string, url: string, options: GymErrorOptions = {}) {
    super(gymMessage('GYM_HTTP_ABORTED', method, url), options);
    this.url = url;
  }
}

/** A 2xx answer whose body is not valid JSON. */
export class GymHttpInvalidJsonError extends gymErrorClass('GYM_HTTP_INVALID_JSON') {
  readonly url: string;
  readonly status: number;
  readonly bodyText: string;

  constructor(method: string, url: string, status: number, bodyText: string, options: GymErrorOptions = {}) {
    super(gymMessage('GYM_HTTP_INVALID_JSON', method, url, status, truncate(bodyText, 100)), options);
    this.url = url;
    this.status = status;
    this.bodyText = bodyText;
  }
}

/** A request was made on a client after `close()`. */
export class GymHttpClientClosedError extends gymErrorClass('GYM_HTTP_CLIENT_CLOSED') {
  constructor(method: string, url: string) {
    super(gymMessage('GYM_HTTP_CLIENT_CLOSED', method, url));
  }
}

/** A URL the client cannot use (not absolute http/https). */
export class GymHttpInvalidUrlError extends gymErrorClass('GYM_HTTP_INVALID_URL') {
  constructor(url: string) {
    super(gymMessage('GYM_HTTP_INVALID_URL', url));
  }
}

/**
 * Thrown by a route handler to answer with a 4xx and `{"detail": detail}` (FastAPI's
 * `HTTPException`). Any other thrown error becomes a 500.
 */
export class GymHttpRequestError extends gymErrorClass('GYM_HTTP_REQUEST_REJECTED') {
  readonly statusCode: number;
  readonly detail: unknown;

  constructor(statusCode: number, detail: unknown) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
    this.statusCode = statusCode;
    this.detail = detail;
  }
}

function readErrorBody(body: unknown): { upstreamCode: string | undefined; upstreamMessage: string | undefined } {
  if (body === null || typeof body !== 'object') {
    return { upstreamCode: undefined, upstreamMessage: typeof body === 'string' ? truncate(body, 300) : undefined };
  }
  const error = (body as { error?: unknown }).error;
  if (error !== null && typeof error === 'object') {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return {
      upstreamCode: typeof code === 'string' ? code : undefined,
      upstreamMessage: typeof message === 'string' ? message : undefined,
    };
  }
  const detail = (body as { detail?: unknown }).detail;
  if (detail !== undefined) {
    return { upstreamCode: undefined, upstreamMessage: truncate(typeof detail === 'string' ? detail : JSON.stringify(detail), 300) };
  }
  return { upstreamCode: undefined, upstreamMessage: undefined };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** A server definition whose route names are unusable (reserved, duplicate or not a path segment). */
export class GymHttpInvalidRouteError extends gymErrorClass('GYM_HTTP_INVALID_ROUTE') {}
