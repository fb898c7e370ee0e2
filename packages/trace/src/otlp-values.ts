/**
 * OTLP/JSON `AnyValue` / `KeyValue` mapping, both directions (reader and `convert`).
 * @module
 */
import type { Attributes, AttributeValue } from './span-record.js';

/** One OTLP/JSON `KeyValue`. */
export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

/** One OTLP/JSON `AnyValue` (exactly one field set). */
export interface OtlpAnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number | string;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  bytesValue?: string;
}

/** Decodes an `AnyValue`; 64-bit ints beyond 2^53 stay decimal strings rather than lose digits. */
export function decodeAnyValue(v: unknown): AttributeValue {
  if (v === null || typeof v !== 'object') return null;
  const a = v as OtlpAnyValue;
  if (a.stringValue !== undefined) return String(a.stringValue);
  if (a.boolValue !== undefined) return Boolean(a.boolValue);
  if (a.intValue !== undefined) {
    const n = Number(a.intValue);
    return Number.isSafeInteger(n) ? n : String(a.intValue);
  }
  if (a.doubleValue !== undefined) return Number(a.doubleValue);
  if (a.arrayValue !== undefined) return (a.arrayValue.values ?? []).map(decodeAnyValue);
  if (a.kvlistValue !== undefined) return decodeKeyValues(a.kvlistValue.values);
  if (a.bytesValue !== undefined) return String(a.bytesValue);
  return null;
}

/** Decodes a `KeyValue[]` into an attribute map, skipping malformed entries. */
export function decodeKeyValues(list: unknown): Attributes {
  const out: Attributes = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list as Array<Partial<OtlpKeyValue>>) {
    if (kv !== null && typeof kv === 'object' && typeof kv.key === 'string') out[kv.key] = decodeAnyValue(kv.value);
  }
  return out;
}

/** Encodes a value as `AnyValue`: integers as `intValue` strings (proto3-JSON int64), others by type. */
export function encodeAnyValue(v: AttributeValue): OtlpAnyValue {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(encodeAnyValue) } };
  if (v !== null && typeof v === 'object') return { kvlistValue: { values: encodeKeyValues(v) } };
  return {};
}

/** Encodes an attribute map as `KeyValue[]`. */
export function encodeKeyValues(attrs: Attributes): OtlpKeyValue[] {
  return Object.entries(attrs).map(([key, value]) => ({ key, value: encodeAnyValue(value) }));
}
