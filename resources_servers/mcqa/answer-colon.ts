/**
 * Reading `Answer: …` answers: the plain form (first `Answer:`; a letter or an option's exact text)
 * and the markdown-aware form (`**Answer: C**`, `__Answer__: A`; the last readable payload wins,
 * a list of different letters such as `A/B` or `A or B` is no answer).
 * @module
 */
import { stripTextWrappers } from './boxed.js';
import { localizedLettersToLatin } from './localized-letters.js';
import { letterOfOptionText } from './options.js';
import { isSingleLetter, PY_SPACE, pyStrip, pyStripChars } from './py-text.js';
import type { OptionEntry } from './options.js';

// `[^\n]` where Python writes `.`: JavaScript's `.` also stops at \r, U+2028 and U+2029; and
// Python's `\s` (S below) also covers U+001C–U+001F and U+0085.
const S = `[${PY_SPACE}]`;
const ANSWER_COLON = new RegExp(`answer${S}*:${S}*([^\\n]+)`, 'i');
const MARKDOWN_ANSWER_COLON = new RegExp(`[*_]{0,2}Answer[*_]{0,2}${S}*:[*_${PY_SPACE}]{0,2}([^\\n]+)`, 'gi');
const PAYLOAD_TRIM = '*_` \t\n\r.,;:';
/** A single ASCII letter standing alone (no letter either side). */
const LONE_LETTER = /(?<![A-Za-z])([A-Za-z])(?![A-Za-z])/g;
const LEADING_LETTER = /^([a-zA-Z])(?![a-zA-Z0-9])/;
/** Python's Unicode `\b[A-Z]\b`: an upper-case letter with no word character either side. */
const STANDALONE_CAPITAL = /(?<![\p{L}\p{N}_])[A-Z](?![\p{L}\p{N}_])/gu;
/** What may sit between the letters of a list of choices: `/ | & , ;`, ` or `, ` and `, spaces. */
const LIST_SEPARATOR = new RegExp(`^(?:${S}*[/|&,;]${S}*|${S}+(?:or|and)${S}+|${S}+)$`, 'i');

/** `lenient_answer_colon`: the first `Answer:` payload as a valid letter, else as an option's exact text. */
export function answerColonLetter(text: string, options: readonly OptionEntry[] | null, allowed: ReadonlySet<string>): string | null {
  const match = ANSWER_COLON.exec(text);
  if (match === null) return null;
  const candidate = pyStrip(stripTextWrappers(match[1]!));
  if (isSingleLetter(candidate) && allowed.has(candidate.toUpperCase())) return candidate.toUpperCase();
  return letterOfOptionText(candidate, options, allowed);
}

/** `lenient_answer_colon_md`: the last `Answer:` payload (markdown emphasis allowed) that names one valid letter. */
export function markdownAnswerColonLetter(text: string, allowed: ReadonlySet<string>): string | null {
  const payloads = [...text.matchAll(MARKDOWN_ANSWER_COLON)].map((m) => m[1]!);
  for (const payload of payloads.reverse()) {
    const letter = choiceLetter(payload, allowed);
    if (letter !== null) return letter;
  }
  return null;
}

/** The one choice letter an answer payload names: `B`, `B because…`, `$D$`, `(D)`, `B/B`; null for `A/B` or no letter. */
export function choiceLetter(payload: string, allowed: ReadonlySet<string>): string | null {
  const candidate = pyStripChars(pyStrip(localizedLettersToLatin(payload)), PAYLOAD_TRIM);
  if (listsDifferentChoices(candidate, allowed)) return null;
  let letter: string | undefined;
  if ([...candidate].length === 1) letter = candidate;
  else letter = LEADING_LETTER.exec(candidate)?.[1] ?? [...candidate.matchAll(STANDALONE_CAPITAL)].at(-1)?.[0];
  if (letter === undefined || letter === '') return null;
  const upper = letter.toUpperCase();
  return allowed.has(upper) ? upper : null;
}

/** True when two neighbouring valid letters differ and only a list separator stands between them. */
function listsDifferentChoices(text: string, allowed: ReadonlySet<string>): boolean {
  const letters = [...text.matchAll(LONE_LETTER)].filter((m) => allowed.has(m[1]!.toUpperCase()));
  for (let i = 1; i < letters.length; i++) {
    const left = letters[i - 1]!;
    const right = letters[i]!;
    const gap = text.slice(left.index + 1, right.index);
    if (left[1]!.toUpperCase() !== right[1]!.toUpperCase() && LIST_SEPARATOR.test(gap)) return true;
  }
  return false;
}
