/**
 * Reading `Answer: …` answers: the plain form (first `Answer:`; a letter or an option's exact text)
 * and the markdown-aware form (`**Answer: C**`, `__Answer__: A`; the last readable payload wins,
 * a list of different letters such as `A/B` or `A or B` is no answer).
 * @module
 */
import { compilePythonRegex, PYTHON_RE_FLAGS } from '@gym/server/python-re';
import { stripTextWrappers } from './boxed.js';
import { localizedLettersToLatin } from './localized-letters.js';
import { letterOfOptionText } from './options.js';
import { isSingleLetter, pyStrip, pyStripChars } from './py-text.js';
import type { OptionEntry } from './options.js';

// The original's patterns, in its Python spelling, run with Python's semantics (`.` stops only at
// \n, `\s` is Python's whitespace, `\b` is Unicode, IGNORECASE folds `ſ` as `s`).
const ANSWER_COLON = compilePythonRegex('(?i)answer\\s*:\\s*(.+)');
const MARKDOWN_ANSWER_COLON = compilePythonRegex('(?im)[*_]{0,2}Answer[*_]{0,2}\\s*:[*_\\s]{0,2}(.+)');
const PAYLOAD_TRIM = '*_` \t\n\r.,;:';
/** A single ASCII letter standing alone (no letter either side). */
const CHOICE_LETTER = compilePythonRegex('(?<![A-Za-z])([A-Za-z])(?![A-Za-z])');
const LEADING_LETTER = compilePythonRegex('^([a-zA-Z])(?![a-zA-Z0-9])');
/** The last capital letter with no word character either side. */
const LAST_STANDALONE_CAPITAL = compilePythonRegex('\\b[A-Z]\\b(?!.*\\b[A-Z]\\b)', PYTHON_RE_FLAGS.DOTALL);
/** What may sit between the letters of a list of choices: `/ | & , ;`, ` or `, ` and `, spaces. */
const LIST_SEPARATOR = compilePythonRegex('(?:\\s*[/|&,;]\\s*|\\s+(?:or|and)\\s+|\\s+)', PYTHON_RE_FLAGS.IGNORECASE);

/** `lenient_answer_colon`: the first `Answer:` payload as a valid letter, else as an option's exact text. */
export function answerColonLetter(text: string, options: readonly OptionEntry[] | null, allowed: ReadonlySet<string>): string | null {
  const match = ANSWER_COLON.search(text);
  if (match === null) return null;
  const candidate = pyStrip(stripTextWrappers(match.group(1)!));
  if (isSingleLetter(candidate) && allowed.has(candidate.toUpperCase())) return candidate.toUpperCase();
  return letterOfOptionText(candidate, options, allowed);
}

/** `lenient_answer_colon_md`: the last `Answer:` payload (markdown emphasis allowed) that names one valid letter. */
export function markdownAnswerColonLetter(text: string, allowed: ReadonlySet<string>): string | null {
  const payloads = MARKDOWN_ANSWER_COLON.findall(text) as string[];
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
  else letter = LEADING_LETTER.match(candidate)?.group(1) ?? LAST_STANDALONE_CAPITAL.search(candidate)?.group(0);
  if (letter === undefined || letter === '') return null;
  const upper = letter.toUpperCase();
  return allowed.has(upper) ? upper : null;
}

/** True when two neighbouring valid letters differ and only a list separator stands between them. */
function listsDifferentChoices(text: string, allowed: ReadonlySet<string>): boolean {
  const letters = [...CHOICE_LETTER.finditer(text)].filter((m) => allowed.has(m.group(1)!.toUpperCase()));
  for (let i = 1; i < letters.length; i++) {
    const left = letters[i - 1]!;
    const right = letters[i]!;
    const gap = text.slice(left.end, right.start);
    if (left.group(1)!.toUpperCase() !== right.group(1)!.toUpperCase() && LIST_SEPARATOR.fullmatch(gap) !== null) return true;
  }
  return false;
}
