/**
 * The secret scrubber of capture files, by the one rule of `config/redact.ts`: values under
 * secret-looking keys (as in config dumps: a map under one is searched, a list's items hidden), and strings that look like bearer tokens or provider API keys, become
 * `[REDACTED]`, and the configured secret values are scrubbed out of every other string
 * (`config/secret-scrub.ts`, as for everything else that leaves a process). Request headers are
 * never captured at all; this guards bodies that carry a key.
 * @module
 */
import { isCredentialValue, isSecretKey, REDACTED, redactUnderSecretKey } from '../config/redact.js';
import { scrubSecrets } from '../config/secret-scrub.js';

/** A copy of `value` with credential-like values replaced by {@link REDACTED}. `value` is not changed. */
export function scrubCaptureSecrets(value: unknown): unknown {
  if (typeof value === 'string') return isCredentialValue(value) ? REDACTED : scrubSecrets(value);
  if (Array.isArray(value)) return value.map(scrubCaptureSecrets);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    out[key] = isSecretKey(key) ? redactUnderSecretKey(inner, scrubCaptureSecrets) : scrubCaptureSecrets(inner);
  }
  return out;
}
