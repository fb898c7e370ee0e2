/**
 * Who a CLIENT span called when the callee left no SERVER span: its address from `url.full`
 * (or `server.address`/`server.port`), so missing spans can be counted per callee.
 * @module
 */
import type { SpanRecord } from '../span-record.js';

/** `host:port` of the request of `span`, or `unknown callee`. */
export function calleeOf(span: SpanRecord): string {
  const url = span.attributes['url.full'];
  if (typeof url === 'string') {
    try {
      const u = new URL(url);
      return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
    } catch {
      // fall through to the server.* attributes
    }
  }
  const host = span.attributes['server.address'];
  const port = span.attributes['server.port'];
  if (typeof host === 'string') return port === undefined || port === null ? host : `${host}:${String(port)}`;
  return 'unknown callee';
}
