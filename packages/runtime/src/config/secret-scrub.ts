/**
 * Scrubbing configured secret values out of text that leaves a process: error bodies, span status
 * and exception messages, log records. The secrets are the values of the config's secret-looking
 * keys (`redact.ts`); a process installs its scrubber once, and with no secret configured there is
 * none, so every call site pays one `undefined` check.
 * @module
 */
import { isSecretKey, REDACTED } from './redact.js';
import { isMap } from './tree.js';

/** Shorter values are not scrubbed: replacing `"abc"` everywhere would mangle every message. */
export const MIN_SCRUBBED_SECRET_LENGTH = 6;

/** Replaces each configured secret value in `text` by `[REDACTED]`. */
export type SecretScrubber = (text: string) => string;

/** The string values under secret-looking keys of `tree` (items of lists too), longest first, unique. */
export function secretValuesOf(tree: unknown): string[] {
  const found = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string' && value.length >= MIN_SCRUBBED_SECRET_LENGTH && value !== REDACTED) found.add(value);
  };
  const visit = (node: unknown) => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    else if (isMap(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (!isMap(value) && isSecretKey(key)) {
          if (Array.isArray(value)) value.forEach(add);
          else add(value);
        } else visit(value);
      }
    }
  };
  visit(tree);
  return [...found].sort((a, b) => b.length - a.length);
}

/** A scrubber of `secrets`, or `undefined` when there is nothing to scrub. */
export function createSecretScrubber(secrets: readonly string[]): SecretScrubber | undefined {
  const usable = secrets.filter((s) => s.length >= MIN_SCRUBBED_SECRET_LENGTH);
  if (usable.length === 0) return undefined;
  // one alternation, longest first, so a key that contains another is replaced whole
  const pattern = new RegExp(
    [...usable]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'g',
  );
  // an URL-encoded or JSON-escaped echo of a key is still the key
  const variants = new Set(usable.flatMap((s) => [encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]).filter((v) => !usable.includes(v)));
  const encoded = variants.size === 0 ? undefined : new RegExp([...variants].map(escapeRegExp).join('|'), 'g');
  return (text) => {
    let out = text.replace(pattern, REDACTED);
    if (encoded !== undefined) out = out.replace(encoded, REDACTED);
    return out;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

let processScrubber: SecretScrubber | undefined;

/** Installs the scrubber of this process (at start-up, from its config); `undefined` removes it. */
export function setProcessScrubber(scrubber: SecretScrubber | undefined): void {
  processScrubber = scrubber;
}

/** The scrubber of this process, or `undefined` when no secret is configured. */
export function processSecretScrubber(): SecretScrubber | undefined {
  return processScrubber;
}

/** `text` with this process's configured secrets replaced (unchanged when none are configured). */
export function scrubSecrets(text: string): string {
  return processScrubber === undefined ? text : processScrubber(text);
}
