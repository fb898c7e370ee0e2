/**
 * Walking a decoded OTLP export request (`resource* → scope* → items`), shared by the span,
 * metric and log converters.
 * @module
 */
import { decodeKeyValues } from '../otlp-values.js';
import type { Attributes } from '../span-record.js';
import { nanosToNs, nsToIso } from '../read/time.js';

/** A decoded message as a plain object. */
export type Obj = Record<string, unknown>;

/** One console record, as its JSON line (no newline), and the service whose file it goes to. */
export interface ServiceRecord {
  service: string;
  line: string;
}

/** One export request as console records, and how many of its spans were unusable (bad ids). */
export interface ConvertedExport {
  records: ServiceRecord[];
  rejected: number;
}

/** One scope's items with their resource and scope, in console-record shape. */
export interface ScopeItems {
  service: string;
  resource: { attributes: Attributes };
  scope: { name: string; version: string | null };
  items: Obj[];
}

/** Objects in `v` when it is an array; anything else is empty. */
export function asObjects(v: unknown): Obj[] {
  return Array.isArray(v) ? (v.filter((x) => x !== null && typeof x === 'object' && !Array.isArray(x)) as Obj[]) : [];
}

/**
 * Flattens `resource<X>[] → scope<X>[] → <items>[]`. When a request carries both the current scope
 * list and the pre-1.0 `instrumentationLibrary*` one, only the current one is read (the OTLP
 * spec's rule for double-publishing senders).
 */
export function scopeItems(request: Obj, resourceKey: string, scopeKey: string, legacyScopeKey: string, itemsKey: string): ScopeItems[] {
  const out: ScopeItems[] = [];
  for (const r of asObjects(request[resourceKey])) {
    const attributes = decodeKeyValues((r['resource'] as Obj | undefined)?.['attributes']);
    const name = attributes['service.name'];
    const service = typeof name === 'string' && name.length > 0 ? name : 'unknown_service';
    const current = asObjects(r[scopeKey]);
    for (const s of current.length > 0 ? current : asObjects(r[legacyScopeKey])) {
      const sc = (s['scope'] ?? s['instrumentationLibrary'] ?? {}) as Obj;
      out.push({
        service,
        resource: { attributes },
        scope: { name: typeof sc['name'] === 'string' ? sc['name'] : '', version: typeof sc['version'] === 'string' && sc['version'] !== '' ? sc['version'] : null },
        items: asObjects(s[itemsKey]),
      });
    }
  }
  return out;
}

/** A time of a console record: ISO-8601 with nine fraction digits, and the decimal Unix nanos. */
export interface UnixTime {
  iso: string;
  nanos: string;
  /** Whole seconds and the nanoseconds past them, for exact differences without a bigint. */
  seconds: number;
  fraction: number;
}

const ZERO_TIME: UnixTime = { iso: nsToIso(0n), nanos: '0', seconds: 0, fraction: 0 };
// what protobufjs hands out for a fixed64 time: decimal digits without a leading zero (a second or more past the epoch)
const CANONICAL_NANOS = /^[1-9]\d{9,18}$/;
// the spans of one export mostly share their second: its ISO text is made once
let cachedSecond = -1;
let cachedIsoSecond = '';

function isoSecond(seconds: number): string {
  if (seconds !== cachedSecond) {
    cachedIsoSecond = new Date(seconds * 1000).toISOString().slice(0, 19);
    cachedSecond = seconds;
  }
  return cachedIsoSecond;
}

/**
 * Unix nanos (a decimal string, a number or a bigint) as a console record's time; absent or
 * malformed is the epoch. The usual case, a decimal string of a recent time, is cut into seconds
 * and fraction as text: a receiver converts two of these per span.
 */
export function unixTimeOf(v: unknown): UnixTime {
  if (typeof v === 'string' && CANONICAL_NANOS.test(v)) {
    const seconds = Number(v.slice(0, -9));
    const fraction = v.slice(-9);
    return { iso: `${isoSecond(seconds)}.${fraction}Z`, nanos: v, seconds, fraction: Number(fraction) };
  }
  const ns = nanosToNs(v);
  if (ns === null || ns === 0n) return ZERO_TIME;
  return { iso: nsToIso(ns), nanos: ns.toString(), seconds: Number(ns / 1_000_000_000n), fraction: Number(ns % 1_000_000_000n) };
}

/** `end - start` in milliseconds rounded to the microsecond (as the lens writer), 0 if not after. */
export function durationMsBetween(start: UnixTime, end: UnixTime): number {
  const ns = (end.seconds - start.seconds) * 1e9 + (end.fraction - start.fraction);
  return ns > 0 ? Math.round(ns / 1000) / 1000 : 0;
}
