/**
 * Reading `\boxed{…}` answers: the content of the last box (braces counted, so `\boxed{\text{E}}`
 * is whole), `\text{…}` wrappers removed, and the letter the box names.
 * @module
 */
import { compilePythonRegex, PYTHON_RE_FLAGS } from '@gym/server/python-re';
import { normalizedOptions, normalizeForMatch } from './options.js';
import { pyStrip } from './py-text.js';
import type { OptionEntry } from './options.js';

const BOX_OPEN = '\\boxed{';
// The original's patterns, run with Python's semantics.
const TEXT_WRAPPER = compilePythonRegex('\\\\text\\{\\s*(.*?)\\s*\\}', PYTHON_RE_FLAGS.DOTALL);
/** Only a letter, with non-letters around it: `E`, `[C]`, `(B)`. */
const LETTER_ONLY = compilePythonRegex('^[^A-Za-z]*([A-Z])[^A-Za-z]*$');
/** A letter then a label delimiter, option text after it ignored: `E: …`, `C) …`. */
const LETTER_LABEL = compilePythonRegex('^\\s*([A-Z])\\s*[:).\\-]');

/**
 * The content of the LAST `\boxed{`, up to its matching brace; null when there is no box or the
 * last one never closes (an earlier box is not used then: a final answer left open is no answer).
 */
export function lastBoxContent(text: string): string | null {
  const start = text.lastIndexOf(BOX_OPEN);
  if (start === -1) return null;
  let depth = 1;
  for (let i = start + BOX_OPEN.length; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(start + BOX_OPEN.length, i);
  }
  return null;
}

/** Removes `\text{…}` wrappers around the whole string, repeatedly. */
export function stripTextWrappers(s: string): string {
  for (let m = TEXT_WRAPPER.fullmatch(s); m !== null; m = TEXT_WRAPPER.fullmatch(s)) s = m.group(1)!;
  return s;
}

/** The letter in the last box (`\boxed{B}`, `\boxed{ [C] }`, `\boxed{\text{E: …}}`), if it is a valid option. */
export function boxedLetter(text: string, allowed: ReadonlySet<string>): string | null {
  const inner = lastBoxContent(text);
  if (inner === null) return null;
  const content = stripTextWrappers(pyStrip(inner));
  const letter = LETTER_ONLY.match(content)?.group(1) ?? LETTER_LABEL.match(content)?.group(1);
  return letter !== undefined && allowed.has(letter) ? letter : null;
}

/**
 * The option whose text appears inside the last box (case and whitespace ignored, with and
 * without `\text{…}`), when exactly one option does; else null.
 */
export function boxedOptionText(text: string, options: readonly OptionEntry[] | null, allowed: ReadonlySet<string>): string | null {
  const inner = lastBoxContent(text);
  if (inner === null) return null;
  const stripped = pyStrip(inner);
  const candidates = [stripped, stripTextWrappers(stripped)].map(normalizeForMatch);
  const matched = new Set<string>();
  for (const candidate of candidates) {
    for (const [letter, optionText] of normalizedOptions(options, allowed)) if (optionText !== '' && candidate.includes(optionText)) matched.add(letter);
  }
  return matched.size === 1 ? [...matched][0]! : null;
}
