/**
 * The texts the judge compares, read as the original reads them: the question from the last user
 * message whose content is a string, the answer from the last assistant message (its text parts
 * joined by newlines), each optionally narrowed by a Python pattern (`re.finditer` with MULTILINE
 * and DOTALL: the last match's first non-blank group, else the whole match, stripped).
 * @module
 */
import { compilePythonRegex, PYTHON_RE_FLAGS, PythonRegexError } from '@gym/server/python-re';
import type { PythonPattern } from '@gym/server/python-re';
import { pyStrip } from '../mcqa/py-text.js';

const FLAGS = PYTHON_RE_FLAGS.MULTILINE | PYTHON_RE_FLAGS.DOTALL;

/**
 * `source` compiled as the original compiles it, or `null` for a pattern Python rejects (the
 * original then uses the whole text). A valid pattern our translation cannot run as Python does
 * throws {@link UnsupportedPythonRegexError}: never a different answer.
 */
export function compileExtractPattern(source: string): PythonPattern | null {
  try {
    return compilePythonRegex(source, FLAGS);
  } catch (error) {
    if (error instanceof PythonRegexError) return null;
    throw error;
  }
}

/** A pattern, or how to compile it when first needed (a row's pattern is compiled only if there is text to apply it to). */
export type PatternSource = PythonPattern | null | (() => PythonPattern | null);

/** `text` narrowed by `source`: the last match's first non-blank group, else the whole match; `text` when nothing matches. */
export function narrowed(text: string, source: PatternSource): string {
  const pattern = typeof source === 'function' ? source() : source;
  if (pattern === null) return text;
  let last;
  for (const m of pattern.finditer(text)) last = m;
  if (last === undefined) return text;
  for (const group of last.groups()) if (group !== undefined && pyStrip(group) !== '') return pyStrip(group);
  return pyStrip(last.group(0)!);
}

type Item = { type?: unknown; role?: unknown; content?: unknown };

/** The last assistant message's text, narrowed by `pattern`; `failure` when there is no assistant text. */
export function lastAssistantText(output: readonly unknown[], pattern: PatternSource, failure: string): string {
  for (let i = output.length - 1; i >= 0; i--) {
    const item = output[i] as Item | null;
    if (item?.type !== 'message' || item.role !== 'assistant') continue;
    let text: string;
    if (Array.isArray(item.content)) {
      const texts = (item.content as Array<{ text?: unknown } | null>).map((part) => part?.text).filter((t): t is string => typeof t === 'string');
      text = pyStrip(texts.join('\n'));
    } else if (typeof item.content === 'string') {
      text = pyStrip(item.content);
    } else {
      return failure;
    }
    return text === '' ? failure : narrowed(text, pattern);
  }
  return failure;
}

/** The last user message whose content is a string, stripped and narrowed by `pattern` ('' when none; a string `input` has no messages). */
export function questionText(input: unknown, pattern: PythonPattern | null): string {
  let last: string | undefined;
  if (Array.isArray(input)) {
    for (const item of input as Array<Item | null>) if (item?.role === 'user' && typeof item.content === 'string') last = item.content;
  }
  const text = pyStrip(last ?? '');
  return text === '' ? text : narrowed(text, pattern);
}

/** Python's `len()`: code points, not UTF-16 units. */
export function pyLen(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
