/**
 * `collectResponse()`: one request dispatched straight to an undici dispatcher, its answer gathered
 * by one small handler into status, headers and text. It answers what `Dispatcher.request()`
 * followed by `body.text()` answered, without the response stream, the async resource and the
 * callbacks those build for every answer: with thousands of requests in flight each waiting on a
 * slow model, every object a request keeps alive is copied by the young-generation collector, and
 * they were a large share of what the agent allocated per rollout (BENCHMARKS.md, `concurrency`).
 * @module
 */
import { errors } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** undici's raw headers: `[name, value, …]`, names as they came. */
type RawHeaders = ReadonlyArray<Buffer | string | string[]>;

/**
 * A complete answer. Its headers stay undici's raw list until asked for: most answers are read
 * for one header (`Set-Cookie`) or none, and building the object decoded every name and value of
 * every answer.
 */
export class CollectedResponse {
  readonly statusCode: number;
  /** The body decoded as UTF-8, a leading byte-order mark dropped (as undici's `body.text()`). */
  readonly text: string;
  /** When the headers arrived (`performance.now()` ms). */
  readonly headersAt: number;
  readonly #raw: RawHeaders;
  #headers: IncomingHttpHeaders | undefined;

  constructor(statusCode: number, raw: RawHeaders, text: string, headersAt: number) {
    this.statusCode = statusCode;
    this.#raw = raw;
    this.text = text;
    this.headersAt = headersAt;
  }

  /** Lower-case names; a repeated header is an array, as undici's `request()` gives them. Built on first read. */
  get headers(): IncomingHttpHeaders {
    return (this.#headers ??= parseRawHeaders(this.#raw));
  }

  /** Every value of header `name` (lower-case), in order, without building {@link headers}. */
  values(name: string): string[] {
    const values: string[] = [];
    const raw = this.#raw;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (!isName(raw[i] as Buffer | string, name)) continue;
      const value = raw[i + 1]!;
      if (Array.isArray(value)) for (const v of value) values.push(latin1(v));
      else values.push(latin1(value));
    }
    return values;
  }
}

/**
 * Sends `opts` through `dispatcher` and resolves with the whole answer; rejects with the
 * dispatcher's error, or with the signal's reason (else undici's `RequestAbortedError`) once
 * `signal` aborts, which also cuts the connection as undici does.
 */
export function collectResponse(dispatcher: Dispatcher, opts: Dispatcher.DispatchOptions, signal: AbortSignal | undefined): Promise<CollectedResponse> {
  return new Promise((resolve, reject) => {
    const handler = new CollectingHandler(resolve, reject, signal);
    try {
      dispatcher.dispatch(opts, handler);
    } catch (err) {
      handler.onError(err as Error);
    }
  });
}

/** undici's callback handler (the shape `Dispatcher.request()` uses); also the signal's listener. */
class CollectingHandler {
  #resolve: ((response: CollectedResponse) => void) | undefined;
  readonly #reject: (reason: unknown) => void;
  #signal: AbortSignal | undefined;
  #abort: ((err?: Error) => void) | undefined;
  #reason: Error | undefined;
  #statusCode = 0;
  #rawHeaders: RawHeaders = [];
  #headersAt = 0;
  #chunks: Buffer[] = [];
  #length = 0;

  constructor(resolve: (response: CollectedResponse) => void, reject: (reason: unknown) => void, signal: AbortSignal | undefined) {
    this.#resolve = resolve;
    this.#reject = reject;
    if (signal?.aborted) this.#reason = abortReason(signal);
    else if (signal !== undefined) {
      this.#signal = signal;
      // the handler itself listens (handleEvent): no closure per request
      signal.addEventListener('abort', this, { once: true });
    }
  }

  /** The signal fired: cut the request; undici then calls `onError` with the reason. */
  handleEvent(): void {
    this.#reason = abortReason(this.#signal!);
    this.#abort?.(this.#reason);
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.#reason !== undefined) {
      abort(this.#reason);
      return;
    }
    this.#abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Array<Buffer | string | string[]> | null, _resume: () => void, _statusText: string): boolean {
    // 1xx informational answers are not the answer
    if (statusCode < 200) return true;
    this.#statusCode = statusCode;
    this.#rawHeaders = rawHeaders ?? [];
    this.#headersAt = performance.now();
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    return true;
  }

  onComplete(): void {
    const resolve = this.#resolve;
    if (resolve === undefined) return;
    this.#settle();
    resolve(new CollectedResponse(this.#statusCode, this.#rawHeaders, decodeUtf8(this.#chunks, this.#length), this.#headersAt));
    this.#chunks = [];
  }

  onError(err: Error): void {
    if (this.#resolve === undefined) return;
    this.#settle();
    this.#chunks = [];
    this.#reject(err);
  }

  #settle(): void {
    this.#resolve = undefined;
    this.#abort = undefined;
    this.#signal?.removeEventListener('abort', this);
    this.#signal = undefined;
  }
}

function abortReason(signal: AbortSignal): Error {
  return (signal.reason as Error | undefined) ?? new errors.RequestAbortedError();
}

/** undici's raw headers (`[name, value, …]`) as an object: lower-case names, repeats collected in an array. */
export function parseRawHeaders(raw: ReadonlyArray<Buffer | string | string[]>): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = latin1(raw[i] as Buffer | string).toLowerCase();
    const value = raw[i + 1]!;
    // own properties only: a header named like an Object.prototype member must not see it
    const existing = Object.hasOwn(headers, name) ? headers[name] : undefined;
    if (existing === undefined) {
      const text = Array.isArray(value) ? value.map(latin1) : latin1(value);
      // a header named __proto__ is a plain field, never a prototype change
      if (name === '__proto__') Object.defineProperty(headers, name, { value: text, enumerable: true, configurable: true, writable: true });
      else headers[name] = text;
    } else if (Array.isArray(existing)) existing.push(latin1(value as Buffer | string));
    else headers[name] = [existing, latin1(value as Buffer | string)];
  }
  return headers;
}

/** True when raw header name `raw` is `lower` (a lower-case name) in any case, compared byte by byte: no string made. */
function isName(raw: Buffer | string, lower: string): boolean {
  if (raw.length !== lower.length) return false;
  if (typeof raw === 'string') return raw.toLowerCase() === lower;
  for (let i = 0; i < lower.length; i++) {
    const byte = raw[i]!;
    // ASCII upper-case letters fold to lower-case; every other byte must match as it is
    if ((byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

function latin1(value: Buffer | string): string {
  return typeof value === 'string' ? value : value.toString('latin1');
}

function decodeUtf8(chunks: Buffer[], length: number): string {
  if (length === 0) return '';
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  const start = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes.toString('utf8', start);
}
