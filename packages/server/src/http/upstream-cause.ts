/**
 * The upstream answer behind a gym server's 500, stated in a response header so that it survives
 * every hop up to the collector: the original's body ("Hit an exception in … calling an inner
 * server: <inner body>") stays as it is, and the status and URL of the answer that failed first
 * (vLLM's 404, say) travel beside it. A server whose inner call failed on another gym server's 500
 * passes that server's cause on unchanged, so the header always names the first failure.
 * @module
 */

/** The response header carrying the cause, as JSON. */
export const UPSTREAM_CAUSE_HEADER = 'x-gym-upstream-cause';

/** The non-2xx answer a chain of failures started from. */
export interface UpstreamCause {
  status: number;
  method: string;
  /** Without query string. */
  url: string;
  /** The label of the gym server that made the failed call (`<ServerClass>___<name>`). */
  server: string;
}

/** The header value of `cause`: JSON with non-ASCII escaped (header values are Latin-1). */
export function encodeUpstreamCause(cause: UpstreamCause): string {
  return JSON.stringify(cause).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The cause in header value `value`, or `undefined` when absent or not one (a foreign server's header is not trusted blindly). */
export function decodeUpstreamCause(value: unknown): UpstreamCause | undefined {
  if (typeof value !== 'string' || value.length > 4096) return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<UpstreamCause> | null;
    if (parsed === null || typeof parsed !== 'object') return undefined;
    const { status, method, url, server } = parsed;
    if (typeof status !== 'number' || typeof method !== 'string' || typeof url !== 'string' || typeof server !== 'string') return undefined;
    return { status, method, url, server };
  } catch {
    return undefined;
  }
}
