/**
 * Time formatting for console records: ISO-8601 with nanosecond digits, and unix nanos as strings.
 * @module
 */
import type { HrTime } from '@opentelemetry/api';

/** `[seconds, nanos]` → unix nanoseconds as a decimal string (exact; beyond 2^53). */
export function hrTimeToNanosString(time: HrTime): string {
  // seconds then nine nanosecond digits is the decimal form, without BigInt arithmetic
  return time[0] > 0 ? `${time[0]}${String(time[1]).padStart(9, '0')}` : String(time[1]);
}

// Spans of one export batch mostly share their second: format the date part once per second.
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/** `[seconds, nanos]` → `2026-01-01T00:00:00.123456789Z` (Date.parse accepts the extra digits). */
export function hrTimeToIso(time: HrTime): string {
  if (time[0] !== cachedSecond) {
    cachedSecond = time[0];
    cachedPrefix = new Date(time[0] * 1000).toISOString().slice(0, 19); // "…T00:00:00"
  }
  return `${cachedPrefix}.${String(time[1]).padStart(9, '0')}Z`;
}

/** Milliseconds between two times, rounded to the microsecond. */
export function durationMs(start: HrTime, end: HrTime): number {
  const ms = (end[0] - start[0]) * 1e3 + (end[1] - start[1]) / 1e6;
  return Math.round(ms * 1000) / 1000;
}
