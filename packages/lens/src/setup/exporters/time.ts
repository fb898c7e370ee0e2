/**
 * Time formatting for console records: ISO-8601 with nanosecond digits, and unix nanos as strings.
 * @module
 */
import type { HrTime } from '@opentelemetry/api';

/** `[seconds, nanos]` → unix nanoseconds as a decimal string (exact; beyond 2^53). */
export function hrTimeToNanosString(time: HrTime): string {
  return (BigInt(time[0]) * 1_000_000_000n + BigInt(time[1])).toString();
}

/** `[seconds, nanos]` → `2026-01-01T00:00:00.123456789Z` (Date.parse accepts the extra digits). */
export function hrTimeToIso(time: HrTime): string {
  const base = new Date(time[0] * 1000).toISOString(); // "…T00:00:00.000Z"
  return `${base.slice(0, 19)}.${String(time[1]).padStart(9, '0')}Z`;
}

/** Milliseconds between two times, rounded to the microsecond. */
export function durationMs(start: HrTime, end: HrTime): number {
  const ms = (end[0] - start[0]) * 1e3 + (end[1] - start[1]) / 1e6;
  return Math.round(ms * 1000) / 1000;
}
