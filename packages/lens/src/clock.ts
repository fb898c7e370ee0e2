/**
 * The span clock: the process's monotonic clock (`performance.now()`) anchored once to the wall
 * clock (`performance.timeOrigin`). Times keep sub-millisecond precision and never step back, so
 * spans of one process nest exactly — which the time attribution of `gym trace why` depends on.
 * (The SDK's own span start is `Date.now()`, a whole millisecond.)
 * @module
 */
import type { HrTime } from '@opentelemetry/api';

const ORIGIN_MS = performance.timeOrigin;
const ORIGIN_SECONDS = Math.floor(ORIGIN_MS / 1000);
const ORIGIN_NANOS = Math.round((ORIGIN_MS - ORIGIN_SECONDS * 1000) * 1e6);

/** `performance.now()`-style milliseconds → wall-clock `[seconds, nanos]`. */
export function hrTimeAt(performanceMs: number): HrTime {
  const nanos = ORIGIN_NANOS + Math.round(performanceMs * 1e6);
  const carry = Math.floor(nanos / 1e9);
  return [ORIGIN_SECONDS + carry, nanos - carry * 1e9];
}

/** Now, as wall-clock `[seconds, nanos]` from the monotonic clock. */
export function nowHrTime(): HrTime {
  return hrTimeAt(performance.now());
}
