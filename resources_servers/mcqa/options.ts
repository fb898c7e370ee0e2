/**
 * A row's `options` (`[{"A": "text"}, {"B": "text"}, …]`): which letters are valid answers, and
 * which letter an answer written as option text stands for.
 * @module
 */
import { collapseSpace, isSingleLetter } from './py-text.js';

/** One entry of `options`: usually a single letter → option text; `null` text marks a dropped option. */
export type OptionEntry = Record<string, string | null>;

/** The valid answer letters, upper case: single-letter keys whose text is not null. */
export function allowedLetters(options: readonly OptionEntry[] | null): Set<string> {
  const letters = new Set<string>();
  for (const entry of options ?? []) {
    for (const [key, text] of Object.entries(entry)) if (text !== null && isSingleLetter(key)) letters.add(key.toUpperCase());
  }
  return letters;
}

/** Lower case with whitespace runs collapsed: how option text and answers are compared. */
export function normalizeForMatch(s: string): string {
  return collapseSpace(s.toLowerCase());
}

/** Each valid option as (letter, normalized text), in row order. */
export function normalizedOptions(options: readonly OptionEntry[] | null, allowed: ReadonlySet<string>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const entry of options ?? []) {
    for (const [key, text] of Object.entries(entry)) {
      if (text !== null && [...key].length === 1 && allowed.has(key.toUpperCase())) out.push([key.toUpperCase(), normalizeForMatch(text)]);
    }
  }
  return out;
}

/** The letter of the first option whose normalized text equals `answer` normalized, else null. */
export function letterOfOptionText(answer: string, options: readonly OptionEntry[] | null, allowed: ReadonlySet<string>): string | null {
  const wanted = normalizeForMatch(answer);
  for (const [letter, text] of normalizedOptions(options, allowed)) if (text === wanted) return letter;
  return null;
}
