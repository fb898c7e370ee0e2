/**
 * Reading the trace id of a rollout from the `/run` response headers: `x-gym-trace-id` (ours),
 * else a W3C `traceresponse`, else a `traceparent` echoed back.
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Name of gym's own trace-id response header. */
export const TRACE_ID_HEADER = 'x-gym-trace-id';

const HEX32 = /^[0-9a-f]{32}$/;
const ZERO_TRACE = '0'.repeat(32);
// version-traceid-parentid-flags, as W3C Trace Context level 1/2
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}/;

/** The 32-hex trace id the headers carry, or undefined when none (or only an invalid one) is present. */
export function traceIdFromHeaders(headers: IncomingHttpHeaders): string | undefined {
  const own = first(headers[TRACE_ID_HEADER])?.trim().toLowerCase();
  if (own !== undefined && HEX32.test(own) && own !== ZERO_TRACE) return own;
  for (const name of ['traceresponse', 'traceparent']) {
    const match = TRACEPARENT.exec(first(headers[name])?.trim().toLowerCase() ?? '');
    if (match !== null && match[1] !== ZERO_TRACE) return match[1];
  }
  return undefined;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
