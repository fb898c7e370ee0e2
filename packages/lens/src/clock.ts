/**
 * The span clock: the process's monotonic clock (`performance.now()`) anchored once to the wall
 * clock (`performance.timeOrigin`). Times keep sub-millisecond precision and never step back, so
 * spans of one process nest exactly — which the time attribution of `gym trace why` depends on.
 * (The SDK's own span start is `Date.now()`, a whole millisecond.)
 * @module
 */
import type { HrTime, TimeInput } from '@opentelemetry/api';

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

/**
 * A time given to a span (`HrTime`, `Date`, epoch ms or a `performance.now()` reading, as the SDK
 * takes them) as `[seconds, nanos]`; none means now.
 */
export function hrTimeOf(time?: TimeInput): HrTime {
  if (time === undefined) return nowHrTime();
  if (Array.isArray(time)) return time;
  const ms = time instanceof Date ? time.getTime() : time;
  // numbers below the process's uptime are performance.now() readings, as in the SDK
  if (ms <= performance.now()) return hrTimeAt(ms);
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}
