/**
 * Secrets and redaction, the one rule: what a secret key is ({@link isSecretKey}), what a value
 * that is a credential by its look is ({@link isCredentialValue}), and the one marker a hidden value
 * becomes ({@link REDACTED}). Every output that redacts uses them: config dumps (`gym env resolve`,
 * the head server) here; the configured secret values found in any text (`secret-scrub.ts`: errors,
 * logs, spans, results, server output); the config each server receives (`server-secrets.ts`);
 * upstream errors (`upstream/redact-secrets.ts`); capture files (`evidence/scrub.ts`).
 * Span attributes follow nemo-lens's own exact key list (`@gym/lens`), with the same marker.
 * @module
 */
import { REDACTED } from '@gym/names';
import { isMap } from './tree.js';

/** What a secret value is replaced with (the marker of `@gym/names`, as spans write it). */
export { REDACTED };

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
  'auth',
]);

/**
 * True when `key` looks like it holds a secret (case-insensitive; see {@link DEFAULT_SECRET_WORDS}):
 * config keys, JSON keys of captured bodies and HTTP header names alike (`api_key`, `clientSecret`,
 * `x-api-key`, `Authorization`, `X-Auth-Token`).
 */
export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_\-.\s]+/)
    .filter((w) => w !== '');
  const last = words[words.length - 1];
  if (last === undefined || !DEFAULT_SECRET_WORDS.has(last)) return false;
  return words.length > 1 || !AMBIGUOUS_ALONE.has(last);
}

/**
 * Secret words that are not secret keys on their own: a bare `token` is a logprob's token and a
 * bare `key` a dictionary's key in the bodies gym captures (`hf_token`, `api_key` are secret).
 */
const AMBIGUOUS_ALONE: ReadonlySet<string> = new Set(['token', 'key', 'keys']);

/** Keys by their look alone: an OpenAI, NVIDIA or Hugging Face key. */
const KEY_SHAPES = String.raw`sk-[A-Za-z0-9_-]{16,}|nvapi-[A-Za-z0-9_-]{16,}|hf_[A-Za-z0-9]{20,}`;
/** A whole value that is a credential by its look: a bearer token or a key. */
const CREDENTIAL_VALUE = new RegExp(String.raw`^(?:Bearer\s+\S+|${KEY_SHAPES})$`);
/** The same inside free text: a bearer token up to a delimiter (the word `Bearer ` is kept), or a key. */
const CREDENTIAL_IN_TEXT = new RegExp(String.raw`(Bearer\s+)[^\s"'\\),]+|\b(?:${KEY_SHAPES})`, 'g');

/** True when `value` is, by its look, a credential whatever key holds it (for captured bodies). */
export function isCredentialValue(value: string): boolean {
  return CREDENTIAL_VALUE.test(value);
}

/** `text` with every credential-shaped word (as {@link isCredentialValue} judges a whole value) replaced by the marker. */
export function scrubCredentialShapes(text: string): string {
  return text.replace(CREDENTIAL_IN_TEXT, (_match, bearer: string | undefined) => (bearer === undefined ? REDACTED : `${bearer}${REDACTED}`));
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
  for (const [k, v] of Object.entries(tree)) out[k] = isSecretKey(k) ? redactUnderSecretKey(v, redactSecrets) : redactSecrets(v);
  return out as T;
}

/**
 * What the value of a secret key becomes: a map is searched (`search`) rather than hidden whole; a
 * list keeps its length, each item {@link REDACTED}; `null` stays `null` (nothing to hide); any
 * other value is {@link REDACTED}.
 */
export function redactUnderSecretKey(value: unknown, search: (map: unknown) => unknown): unknown {
  if (isMap(value)) return search(value);
  if (Array.isArray(value)) return value.map(() => REDACTED);
  return value === null ? null : REDACTED;
}
