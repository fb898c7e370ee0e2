/**
 * Hiding secrets before a config is printed (`gym env resolve`) or served (head server).
 * @module
 */
import { isMap } from './tree.js';

/** What a secret value is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Last words of a key that mark it secret. Matched against the key's final word (split on `_`,
 * `-`, `.` and camelCase), so `api_key`, `hf_token`, `clientSecret` and `otlp_headers` are secret
 * but `max_tokens`, `token_ids` and `secret_name` are not.
 */
export const DEFAULT_SECRET_WORDS: ReadonlySet<string> = new Set([
  'key',
  'keys',
  'apikey',
  'token',
  'secret',
  'secrets',
  'password',
  'passwd',
  'authorization',
  'cookie',
  'cookies',
  'credential',
  'credentials',
  'header',
  'headers',
]);

/** True when `key` looks like it holds a secret (case-insensitive; see {@link DEFAULT_SECRET_WORDS}). */
export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_\-.\s]+/)
    .filter((w) => w !== '');
  const last = words[words.length - 1];
  return last !== undefined && DEFAULT_SECRET_WORDS.has(last);
}

/**
 * Returns a copy of `tree` where every non-map value under a secret-looking key is replaced by
 * `"[REDACTED]"` (a list keeps its length, each item redacted). Maps under such keys are searched recursively rather than
 * hidden whole, so `token_id_capture: {...}`-style blocks stay readable. `null` stays `null`
 * (nothing to hide). The input is not modified.
 */
export function redactSecrets<T>(tree: T): T {
  if (Array.isArray(tree)) return (tree as unknown[]).map((v) => redactSecrets(v)) as T;
  if (!isMap(tree)) return tree;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tree)) {
    if (isMap(v) || !isSecretKey(k)) out[k] = redactSecrets(v);
    else if (Array.isArray(v)) out[k] = v.map(() => REDACTED);
    else out[k] = v === null ? null : REDACTED;
  }
  return out as T;
}
