/**
 * String helpers that read text the way Python's `str` methods do, so answers extracted here are
 * the ones the original environment extracts: Python's whitespace set (it includes U+001C–U+001F
 * and U+0085, and not U+FEFF as JavaScript's `\s` does) and Unicode letters for `isalpha`.
 * @module
 */

/** The characters Python's `str.isspace()` accepts, as a regex class body. */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const LEADING_SPACE = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING_SPACE = new RegExp(`[${PY_SPACE}]+$`);
const SPACE_RUN = new RegExp(`[${PY_SPACE}]+`);
const SINGLE_LETTER = /^\p{L}$/u;

/** `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');
}

/** `s.strip(chars)`: removes any of `chars` from both ends. */
export function pyStripChars(s: string, chars: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && chars.includes(s[start]!)) start++;
  while (end > start && chars.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/** `" ".join(s.split())`: runs of whitespace become one space, none at the ends. */
export function collapseSpace(s: string): string {
  return pyStrip(s)
    .split(SPACE_RUN)
    .filter((part) => part !== '')
    .join(' ');
}

/** `len(s) == 1 and s.isalpha()`, counting code points as Python does. */
export function isSingleLetter(s: string): boolean {
  return SINGLE_LETTER.test(s);
}
