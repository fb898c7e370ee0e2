/**
 * Scrubbing configured secret values out of text that leaves a process: error bodies, span status
 * and exception messages, log records, server output, results rows, capture files. The secrets
 * are the values of the config's secret-looking keys (`redact.ts`); each is found raw,
 * JSON-escaped (once or twice), `\uXXXX`-escaped and URL-encoded (`encodeURIComponent`, and
 * `application/x-www-form-urlencoded` with `+` and `%21`), even mixed. A process installs its
 * scrubber once, and with no secret configured there is none, so every call site pays one
 * `undefined` check.
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

/** JSON's short escapes: the letter after the backslash. */
const SHORT_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f' };

/**
 * A pattern of the ways one character of a secret is written where a secret is echoed: as itself;
 * JSON-escaped to any depth (an upstream's JSON error quoted inside our JSON error, inside a log
 * line's string: any run of backslashes before it); `\uXXXX`, any hex case and depth (Python's
 * `ensure_ascii`); percent-encoded, either hex case, whether or not `encodeURIComponent` would
 * (`!` as `%21`, as `application/x-www-form-urlencoded` does); a space as `+`. Letters and digits
 * are written as themselves by every one of these.
 */
function characterPattern(char: string): string {
  if (/^[A-Za-z0-9]$/.test(char)) return char;
  const short = SHORT_ESCAPES[char];
  // `\"`, `\\\"`, …; a backslash is one or more backslashes
  const escaped = char === '\\' ? '\\\\+' : short === undefined ? escapeRegExp(char) : `(?:${escapeRegExp(char)}|\\\\+${escapeRegExp(short)})`;
  // per UTF-16 unit: a character outside the BMP is written as its surrogate pair
  const unicode = Array.from({ length: char.length }, (_, i) => `\\\\+u${hexPattern(char.charCodeAt(i).toString(16).padStart(4, '0'))}`).join('');
  const percent = [...Buffer.from(char, 'utf8')].map((byte) => `%${hexPattern(byte.toString(16).padStart(2, '0'))}`).join('');
  const forms = [escaped, unicode, percent, ...(char === ' ' ? ['\\+'] : [])];
  return `(?:${forms.join('|')})`;
}

/** `[0-9a-fA-F]`-style pattern of fixed hex digits, either case. */
function hexPattern(hex: string): string {
  return [...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
}

/** A pattern matching `secret` however each of its characters is written ({@link characterPattern}). */
function secretPattern(secret: string): string {
  return [...secret].map(characterPattern).join('');
}

/**
 * The longest run of letters and digits of `secret`: written as itself in every encoding, so text
 * without it cannot hold the secret and is returned without running the pattern.
 */
function anchorOf(secret: string): string {
  return (secret.match(/[A-Za-z0-9]+/g) ?? []).reduce((longest, run) => (run.length > longest.length ? run : longest), '');
}

/** Anchors shorter than this would match too often to save work. */
const MIN_ANCHOR_LENGTH = 4;

/** A scrubber of `secrets`, or `undefined` when there is nothing to scrub. */
export function createSecretScrubber(secrets: readonly string[]): SecretScrubber | undefined {
  const usable = [...new Set(secrets.filter((s) => s.length >= MIN_SCRUBBED_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  if (usable.length === 0) return undefined;
  // one alternation, longest first, so a key that contains another is replaced whole
  const pattern = new RegExp(usable.map(secretPattern).join('|'), 'g');
  const anchors = usable.map(anchorOf);
  const alwaysRun = anchors.some((a) => a.length < MIN_ANCHOR_LENGTH);
  const scrubber: SecretScrubber = (text) => (alwaysRun || anchors.some((a) => text.includes(a)) ? text.replace(pattern, REDACTED) : text);
  if (!alwaysRun) ANCHORS.set(scrubber, anchors.map(toBytes));
  return scrubber;
}

const toBytes = (text: string): Buffer => Buffer.from(text, 'utf8');

/** The anchors of each scrubber that has them, as bytes: raw output is checked without decoding it. */
const ANCHORS = new WeakMap<SecretScrubber, Buffer[]>();

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

/**
 * `bytes` (UTF-8 text in whole lines, such as a server's output) with this process's secrets
 * replaced; the same buffer when there is nothing to replace, found without decoding it.
 */
export function scrubBytes(bytes: Buffer): Buffer {
  const scrubber = processScrubber;
  if (scrubber === undefined) return bytes;
  const anchors = ANCHORS.get(scrubber);
  if (anchors !== undefined && !anchors.some((a) => bytes.includes(a))) return bytes;
  const text = bytes.toString('utf8');
  const scrubbed = scrubber(text);
  return scrubbed === text ? bytes : Buffer.from(scrubbed, 'utf8');
}

/**
 * `text` scrubbed and still JSON: a replacement that would break its syntax (an escape cut in half)
 * is made value by value instead. For JSON written to files (results rows, sidecars, captures).
 */
export function scrubJsonText(text: string): string {
  if (processScrubber === undefined) return text;
  const scrubbed = processScrubber(text);
  if (scrubbed === text) return text;
  try {
    JSON.parse(scrubbed);
    return scrubbed;
  } catch {
    return JSON.stringify(scrubValues(JSON.parse(text) as unknown, processScrubber));
  }
}

function scrubValues(value: unknown, scrub: SecretScrubber): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubValues(v, scrub));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [scrub(k), scrubValues(v, scrub)]));
}
