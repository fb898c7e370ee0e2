/**
 * Timestamp parsing to exact unix nanoseconds (bigint), from the shapes the readers meet.
 * @module
 */

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses ISO-8601 with up to nanosecond digits (`2026-01-01T00:00:00.123456789Z`); a missing zone
 * means UTC (the Python SDK writes `Z`, but be lenient). Returns null when unparseable.
 */
export function isoToNs(iso: string): bigint | null {
  const m = ISO.exec(iso);
  if (m === null) return null;
  const zone = m[3] ?? 'Z';
  const ms = Date.parse(`${m[1]}${zone === 'Z' ? 'Z' : zone}`);
  if (Number.isNaN(ms)) return null;
  const frac = (m[2] ?? '').padEnd(9, '0');
  return BigInt(ms) * 1_000_000n + BigInt(frac);
}

/** Parses a decimal nanosecond count given as a string or number; null when absent or invalid. */
export function nanosToNs(value: unknown): bigint | null {
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return BigInt(Math.round(value));
  if (typeof value === 'bigint') return value;
  return null;
}

/** Parses whichever of nanos or ISO is present, nanos first (exact). */
export function anyTimeToNs(nanos: unknown, iso: unknown): bigint | null {
  const n = nanosToNs(nanos);
  if (n !== null && n > 0n) return n;
  return typeof iso === 'string' ? isoToNs(iso) : null;
}

/** Unix nanoseconds → ISO-8601 with nine fraction digits. */
export function nsToIso(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const base = new Date(Number(ms)).toISOString();
  return `${base.slice(0, 19)}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}
