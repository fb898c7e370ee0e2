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
  let s = raw.startsWith('0x') || raw.startsWith('0X') ? raw.slice(2) : raw;
  let hex: string | null = null;
  // Hex first: a 2*bytes-long hex string can't be base64 of `bytes` bytes (that is shorter).
  if (s.length === bytes * 2 && HEX.test(s)) hex = s.toLowerCase();
  else if (s.length < bytes * 2 && BASE64.test(s)) {
    s = s.replace(/-/g, '+').replace(/_/g, '/');
    const buf = Buffer.from(s, 'base64');
    if (buf.length === bytes) hex = buf.toString('hex');
  } else if (s.length < bytes * 2 && HEX.test(s)) {
    // Python's hex formatting of an int drops leading zeros only if someone used hex() directly.
    hex = s.toLowerCase().padStart(bytes * 2, '0');
  }
  if (hex === null || /^0+$/.test(hex)) return null;
  return hex;
}
