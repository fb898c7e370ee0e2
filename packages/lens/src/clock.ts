/**
 * The span clock: the process's monotonic clock (`performance.now()`) anchored once to the wall
 * clock. Times keep sub-millisecond precision and never step back, so spans of one process nest
 * exactly — which the time attribution of `gym trace why` depends on. (The SDK's own span start is
 * `Date.now()`, a whole millisecond.)
 *
 * Every process of a host shares one monotonic clock, so spans of several processes nest exactly
 * too when they share one anchor: the offset of the wall clock from the monotonic clock, which a
 * launcher measures once and hands to its children in {@link CLOCK_OFFSET_ENV}. A process started
 * without it measures the offset itself, to within a few microseconds (`performance.timeOrigin`
 * alone is off by up to a millisecond, enough for a child span to start before its parent).
 * @module
 */
import type { HrTime, TimeInput } from '@opentelemetry/api';

/** Wall-clock nanoseconds minus `process.hrtime.bigint()`, as decimal digits, for child processes. */
export const CLOCK_OFFSET_ENV = 'NEMO_LENS_CLOCK_OFFSET_NS';

/**
 * Measures wall-clock nanoseconds minus the monotonic clock's. `Date.now()` steps at each
 * millisecond of the wall clock: the monotonic readings just before and after a step bracket the
 * instant, so the offset is known to the loop's period (well under a microsecond) instead of the
 * whole millisecond a single reading leaves. Of three steps the narrowest bracket wins (a step
 * that straddles a preemption is wide). Busy-waits up to about 3 ms, once per process.
 */
export function measureClockOffsetNs(): bigint {
  let best: { offset: bigint; width: bigint } | undefined;
  for (let sample = 0; sample < 3; sample++) {
    const start = Date.now();
    let previous = process.hrtime.bigint();
    let wall = start;
    let before = previous;
    while (wall === start) {
      previous = before;
      before = process.hrtime.bigint();
      wall = Date.now();
    }
    const after = process.hrtime.bigint();
    // the wall clock reached `wall` ms after `previous` (Date.now() still said `start` then) and before `after`
    const width = after - previous;
    if (best === undefined || width < best.width) best = { offset: BigInt(wall) * 1_000_000n - (previous + after) / 2n, width };
    if (width < 2_000n) break;
  }
  return best!.offset;
}

/** The offset handed down by a launcher, when it is a whole number. */
function inheritedOffsetNs(): bigint | undefined {
  const raw = process.env[CLOCK_OFFSET_ENV]?.trim();
  return raw !== undefined && /^-?\d{1,25}$/.test(raw) ? BigInt(raw) : undefined;
}

/**
 * The monotonic reading at which `performance.now()` is 0: its reading bracketed by two monotonic
 * ones, the narrowest of three brackets (the first call of `performance.now()` in a process can
 * take milliseconds, so it is made once before).
 */
function monotonicOriginNs(): bigint {
  performance.now();
  let best: { origin: bigint; width: bigint } | undefined;
  for (let sample = 0; sample < 3; sample++) {
    const before = process.hrtime.bigint();
    const now = performance.now();
    const after = process.hrtime.bigint();
    if (best === undefined || after - before < best.width) best = { origin: (before + after) / 2n - BigInt(Math.round(now * 1e6)), width: after - before };
  }
  return best!.origin;
}

// Anchored at the first span, not at import: importing lens reads no environment and waits for nothing.
let offsetNs: bigint | undefined;
let originSeconds = 0;
let originNanos = 0;

/** This process's wall-clock offset (inherited, else measured here), fixed at its first use. */
export function clockOffsetNs(): bigint {
  if (offsetNs === undefined) {
    offsetNs = inheritedOffsetNs() ?? measureClockOffsetNs();
    const origin = monotonicOriginNs() + offsetNs;
    originSeconds = Number(origin / 1_000_000_000n);
    originNanos = Number(origin % 1_000_000_000n);
  }
  return offsetNs;
}

/** `performance.now()`-style milliseconds → wall-clock `[seconds, nanos]`. */
export function hrTimeAt(performanceMs: number): HrTime {
  if (offsetNs === undefined) clockOffsetNs();
  const nanos = originNanos + Math.round(performanceMs * 1e6);
  const carry = Math.floor(nanos / 1e9);
  return [originSeconds + carry, nanos - carry * 1e9];
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
