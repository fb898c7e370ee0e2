/**
 * Who a CLIENT span called when the callee left no SERVER span: its address from `url.full`
 * (or `server.address`/`server.port`), so missing spans can be counted per callee.
 * @module
 */
import type { SpanRecord } from '../span-record.js';

// `host:port` by `url.full`: a run calls a few addresses millions of times, and parsing a URL costs
// about a microsecond. Bounded: a run whose URLs are all different only fills and clears it.
const HOST_PORT = new Map<string, string | null>();
const MAX_CACHED = 4096;

/** `host:port` of the request of `span`, or `unknown callee`. */
export function calleeOf(span: SpanRecord): string {
  const url = span.attributes['url.full'];
  if (typeof url === 'string') {
    let hostPort = HOST_PORT.get(url);
    if (hostPort === undefined) {
      hostPort = hostPortOf(url);
      if (HOST_PORT.size >= MAX_CACHED) HOST_PORT.clear();
      HOST_PORT.set(url, hostPort);
    }
    if (hostPort !== null) return hostPort;
    // else fall through to the server.* attributes
  }
  const host = span.attributes['server.address'];
  const port = span.attributes['server.port'];
  if (typeof host === 'string') return port === undefined || port === null ? host : `${host}:${String(port)}`;
  return 'unknown callee';
}

function hostPortOf(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return null;
  }
}
