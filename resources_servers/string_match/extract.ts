/**
 * Pulling the candidate answer out of the model's text, per row `extraction_mode`: the last
 * `\boxed{…}`, the last `Final answer:` / `Answer:` line (falling back to a box), the last
 * non-empty line, or the whole text. Pure.
 * @module
 */
import { compilePythonRegex, PYTHON_RE_FLAGS } from '@gym/server/python-re';
import { pyStrip, splitLines } from './py-text.js';

/** The extraction modes a row may ask for; `final_answer` is the default. */
export const EXTRACTION_MODES = ['boxed', 'final_answer', 'last_line', 'full_response'] as const;
export type ExtractionMode = (typeof EXTRACTION_MODES)[number];

const BOX_OPEN = '\\boxed{';
// The original's patterns, run with Python's semantics (`.` stops only at \n, `\s` is Python's
// whitespace — U+FEFF is not — `$` also matches before a final \n, IGNORECASE folds `ſ` as `s`).
const TEXT_WRAPPER = compilePythonRegex('\\\\text\\{\\s*(.*?)\\s*\\}', PYTHON_RE_FLAGS.DOTALL);
const FINAL_ANSWER = compilePythonRegex('(?i)(?:final\\s+answer|answer)\\s*[:：]\\s*(.+)');
const TRAILING_PERIOD = compilePythonRegex('\\.\\s*$');

/** The answer `mode` reads from `text`, or null when there is none. */
export function extractAnswer(text: string, mode: ExtractionMode): string | null {
  switch (mode) {
    case 'boxed':
      return lastClosedBox(text);
    case 'final_answer':
      return finalAnswer(text) ?? lastClosedBox(text);
    case 'last_line':
      return (
        splitLines(text)
          .map(pyStrip)
          .findLast((line) => line !== '') ?? null
      );
    case 'full_response':
      return pyStrip(text) === '' ? null : pyStrip(text);
  }
}

/**
 * The content of the last `\boxed{…}` that closes (braces counted), trimmed and with `\text{…}`
 * wrappers removed. A last box left open falls back to the box before it.
 */
export function lastClosedBox(text: string): string | null {
  for (let start = text.lastIndexOf(BOX_OPEN); start !== -1; start = start === 0 ? -1 : text.lastIndexOf(BOX_OPEN, start - 1)) {
    const innerStart = start + BOX_OPEN.length;
    let depth = 1;
    for (let i = innerStart; i < text.length; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}') depth--;
      if (depth === 0) return pyStrip(stripTextWrappers(pyStrip(text.slice(innerStart, i))));
    }
  }
  return null;
}

/** The value after the last `Final answer:` / `Answer:` (a full-width colon counts), without trailing periods. */
export function finalAnswer(text: string): string | null {
  const last = FINAL_ANSWER.findall(text).at(-1) as string | undefined;
  if (last === undefined) return null;
  const raw = pyStrip(last);
  return pyStrip(TRAILING_PERIOD.split(raw)[0]!).replace(/\.+$/, '');
}

function stripTextWrappers(s: string): string {
  for (let m = TEXT_WRAPPER.fullmatch(s); m !== null; m = TEXT_WRAPPER.fullmatch(s)) s = m.group(1)!;
  return s;
}
