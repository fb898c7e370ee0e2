/**
 * Trace and span id normalisation: every reader hands out lowercase hex.
 * Inputs seen in the wild: plain hex (ours, OTLP file exporter), `0x`-prefixed hex (Python SDK
 * console) and base64 (proto3-JSON mapping of `bytes`, e.g. some collectors' file exporter).
 * @module
 */

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Normalises an id of `bytes` length (16 for trace ids, 8 for span ids) to lowercase hex.
 * Returns null for empty, all-zero or unrecognisable ids.
 */
export function normalizeId(raw: unknown, bytes: 8 | 16): string | null {
  if (typeof raw !== 'string' || raw.length === 0) return null;
  const hex = hexOf(raw, bytes * 2);
  return hex === null || ALL_ZEROS.test(hex) ? null : hex;
}

const ALL_ZEROS = /^0+$/;

function hexOf(raw: string, width: number): string | null {
  // Hex first: a full-width hex string can't be base64 of the same bytes (that is shorter).
  if (raw.length === width && HEX.test(raw)) return raw.toLowerCase();
  const prefixed = raw.startsWith('0x') || raw.startsWith('0X');
  // the Python SDK's console output: `0x` and the full width
  if (prefixed && raw.length === width + 2 && HEX.test(raw.slice(2))) return raw.slice(2).toLowerCase();
  // base64 before any shorter hex: one base64 id in 2,048 itself begins with `0x` or `0X`
  if (raw.length < width && BASE64.test(raw)) {
    const buf = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (buf.length === width / 2) return buf.toString('hex');
  }
  // `0x` and fewer digits: Python's hex() of an int drops leading zeros
  const digits = raw.slice(2);
  if (prefixed && digits.length > 0 && digits.length < width && HEX.test(digits)) return digits.toLowerCase().padStart(width, '0');
  return null;
}
