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

/** One console record and the service whose file it goes to. */
export interface ServiceRecord {
  service: string;
  record: Obj;
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

/** Unix nanos (decimal string or number) → exact bigint; 0 when absent. */
export function nanosOf(v: unknown): bigint {
  return nanosToNs(v) ?? 0n;
}

/** `{ <prefix>time, <prefix>time_unix_nano }` pair of a console record. */
export function timePair(ns: bigint): { iso: string; nanos: string } {
  return { iso: nsToIso(ns), nanos: ns.toString() };
}
