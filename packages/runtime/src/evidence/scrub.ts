/**
 * The secret scrubber of capture files: values under credential-like keys, and strings that look
 * like bearer tokens or provider API keys, become `[REDACTED]`, and the configured secret values are
 * scrubbed out of every other string (`config/secret-scrub.ts`, as for everything else that leaves
 * a process). Request headers are never captured at all; this guards bodies that carry a key.
 * @module
 */
import { scrubSecrets } from '../config/secret-scrub.js';

const SECRET_KEYS = new Set([
  'api_key',
  'apikey',
  'api-key',
  'x-api-key',
  'authorization',
  'proxy-authorization',
  'password',
  'secret',
  'client_secret',
  'access_token',
  'refresh_token',
  'openai_api_key',
  'hf_token',
]);
const SECRET_VALUE = /^(?:Bearer\s+\S+|sk-[A-Za-z0-9_-]{16,}|nvapi-[A-Za-z0-9_-]{16,}|hf_[A-Za-z0-9]{20,})$/;
/** What a scrubbed value becomes. */
export const REDACTED = '[REDACTED]';

/** A copy of `value` with credential-like values replaced by {@link REDACTED}. `value` is not changed. */
export function scrubCaptureSecrets(value: unknown): unknown {
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? REDACTED : scrubSecrets(value);
  if (Array.isArray(value)) return value.map(scrubCaptureSecrets);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) && inner !== null && inner !== '' ? REDACTED : scrubCaptureSecrets(inner);
  }
  return out;
}
