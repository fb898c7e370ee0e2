/**
 * An OpenAI-compatible upstream (OpenAI, vLLM, any `/v1` server) reached through the process's
 * one HTTP client, so every call gets the client's retries and its CLIENT span. The gym
 * counterpart of the original's `NeMoGymAsyncOpenAI`: Bearer auth, default headers, JSON in and
 * out, and errors that never carry the key. Shared by every model server that fronts such an
 * endpoint (`openai_model`, `vllm_model`), so none of them imports another.
 * @module
 */
import { GymUpstreamError } from '../errors.js';
import { isSecretKey } from '../config/redact.js';
import { redactError } from './redact-secrets.js';
import type { HttpClient, TraceScope } from '../http/index.js';

/** Options of {@link OpenAIUpstream}. */
export interface OpenAIUpstreamOptions {
  http: HttpClient;
  /** e.g. `https://api.openai.com/v1` or `http://gpu-node:8000/v1`; a trailing `/` is ignored. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; empty sends no header. */
  apiKey: string;
  /** Sent with every request (the key's header wins over an `authorization` entry here). */
  defaultHeaders?: Record<string, string> | null | undefined;
  /** Send `traceparent` to this upstream (telemetry on). Default true. */
  propagateTraceparent?: boolean;
  /** Send gym's baggage (the rollout id) to this upstream. Default false: it is a third party. */
  propagateBaggage?: boolean;
}

/** Per-call options of {@link OpenAIUpstream.post}. */
export interface UpstreamCallOptions {
  /** Aborts the call, e.g. when the model server's own caller went away. */
  signal?: AbortSignal | undefined;
  /** The trace scope of the request this call serves (`route.scope`). */
  scope?: TraceScope | undefined;
}

/** One OpenAI-compatible endpoint. */
export class OpenAIUpstream {
  /** The base URL without a trailing slash. */
  readonly baseUrl: string;
  readonly #http: HttpClient;
  readonly #headers: Record<string, string>;
  readonly #secrets: readonly string[];
  readonly #traceparent: boolean;
  readonly #baggage: boolean;

  constructor(options: OpenAIUpstreamOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#http = options.http;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.defaultHeaders ?? {})) headers[name.toLowerCase()] = value;
    if (options.apiKey !== '') headers['authorization'] = `Bearer ${options.apiKey}`;
    this.#headers = headers;
    this.#secrets = [options.apiKey, ...secretHeaderValues(options.defaultHeaders ?? {})];
    this.#traceparent = options.propagateTraceparent ?? true;
    this.#baggage = options.propagateBaggage ?? false;
  }

  /**
   * `POST <baseUrl><path>` with a JSON body; resolves to the parsed JSON object answer. Throws a
   * `GymUpstreamError` (key redacted) on a non-2xx answer, a network failure or a non-object body.
   */
  post<T extends object = Record<string, unknown>>(path: string, body: unknown, options: UpstreamCallOptions = {}): Promise<T> {
    return this.postUrl<T>(`${this.baseUrl}${path}`, body, options);
  }

  /** `POST` to an absolute URL of the same server (e.g. vLLM's `/tokenize`, outside `/v1`). */
  async postUrl<T extends object = Record<string, unknown>>(url: string, body: unknown, options: UpstreamCallOptions = {}): Promise<T> {
    let answer: unknown;
    try {
      const request = {
        headers: this.#headers,
        external: true,
        traceparent: this.#traceparent,
        baggage: this.#baggage,
        scope: options.scope,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      };
      answer = (await this.#http.post(url, body, request)).body;
    } catch (error) {
      throw redactError(error, this.#secrets);
    }
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
      throw new GymUpstreamError('GYM_MODEL_BAD_REPLY', `POST ${url} answered with a body that is not a JSON object. Check that the URL is an OpenAI-compatible endpoint.`);
    }
    return answer as T;
  }
}

/** Values of headers whose names look secret (`Authorization`, `x-api-key`, `*-token`, …), with and without a `Bearer ` prefix. */
function secretHeaderValues(headers: Record<string, string>): string[] {
  return Object.entries(headers)
    .filter(([name]) => isSecretKey(name))
    .flatMap(([, value]) => [value, value.replace(/^bearer\s+/i, '')]);
}
