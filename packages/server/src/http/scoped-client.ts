/**
 * A view of the process's HTTP client bound to one trace scope: what a route handler gets as
 * `route.http`, so its calls join its request's trace after an `await` without passing `scope` by
 * hand. It shares the client's pools; a request that names a scope of its own keeps it.
 * @module
 */
import type { TraceScope } from './instrumentation.js';
import type { HttpClient, HttpRequest, HttpRequestOptions, HttpResponse } from './types.js';

class ScopedHttpClient implements HttpClient {
  readonly base: HttpClient;
  readonly #scope: TraceScope;

  constructor(base: HttpClient, scope: TraceScope) {
    this.base = base;
    this.#scope = scope;
  }

  get closed(): boolean {
    return this.base.closed;
  }

  request<T>(request: HttpRequest): Promise<HttpResponse<T>> {
    return this.base.request<T>(request.scope === undefined ? { ...request, scope: this.#scope } : request);
  }

  post<T>(url: string, body: unknown, options?: HttpRequestOptions): Promise<HttpResponse<T>> {
    return this.base.request<T>({ ...options, method: 'POST', url, body, scope: options?.scope ?? this.#scope });
  }

  get<T>(url: string, options?: HttpRequestOptions): Promise<HttpResponse<T>> {
    return this.base.request<T>({ ...options, method: 'GET', url, scope: options?.scope ?? this.#scope });
  }

  /** Closes the process's client itself (the view owns no pools). */
  close(): Promise<void> {
    return this.base.close();
  }
}

/** `client` with `scope` as the scope of every request that names none; `client` itself without a scope. */
export function bindHttpClient(client: HttpClient, scope: TraceScope | undefined): HttpClient {
  if (scope === undefined) return client;
  // re-binding a view (an endpoint span's scope replacing the request's) binds the client underneath
  const base = client instanceof ScopedHttpClient ? client.base : client;
  return new ScopedHttpClient(base, scope);
}
