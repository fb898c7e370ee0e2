/**
 * `template_metadata.output_regex`: a dataset's own pattern (or list of patterns) for reading the
 * answer. The patterns are Python's (the original's datasets are written for `re.findall(pattern,
 * text, re.IGNORECASE)`) and run with Python's semantics through `@gym/server/python-re`: Unicode
 * `\b` `\w` `\d` `\s`, Python's case folds, its `.` and `$`. As in the original, a pattern Python
 * rejects gives no answer (grading falls back to the grading mode), and one with several groups
 * fails the request (findall then gives tuples, which the original cannot strip). A valid pattern
 * the translation cannot match as Python does fails the request with that reason rather than
 * grading differently. A pattern runs over the model's text for at most {@link PATTERN_TIMEOUT_MS}:
 * model text is untrusted, and a pattern that backtracks without end (`(a+)+$` on forty a's and a
 * `!`) must not hang the server; it then gives no answer.
 * @module
 */
import vm from 'node:vm';
import { compilePythonRegex, PYTHON_RE_FLAGS, PythonRegexError } from '@gym/server/python-re';
import type { PythonPattern } from '@gym/server/python-re';
import { localizedLettersToLatin } from './localized-letters.js';
import { letterOfOptionText } from './options.js';
import { isSingleLetter, pyStrip } from './py-text.js';
import type { OptionEntry } from './options.js';

/** How long one pattern may run over one answer (V8 interrupts the match; ordinary ones take microseconds, but a loaded machine may pause a process for hundreds of milliseconds, which must not change a grade). */
export const PATTERN_TIMEOUT_MS = 1000;

// the match runs as a script so that node's script timeout can interrupt it
const sandbox = vm.createContext({ findLast: () => undefined });
const findLastScript = new vm.Script('findLast()');

/** The last `findall` item of `pattern` in `text`, or `undefined` when there is none or it ran out of time. */
function boundedLastFinding(pattern: PythonPattern, text: string): string | string[] | undefined {
  sandbox['findLast'] = () => pattern.findall(text).at(-1);
  try {
    return findLastScript.runInContext(sandbox, { timeout: PATTERN_TIMEOUT_MS }) as string | string[] | undefined;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    throw error;
  } finally {
    sandbox['findLast'] = () => undefined;
  }
}

const CACHE_LIMIT = 256;
/** Patterns repeat across rows (one per prompt template): compile each once. `null` = Python rejects it. */
const compiled = new Map<string, PythonPattern | null>();

/** Python's `findall` of several groups gives tuples, which the original's `.strip()` fails on. */
class AttributeError extends Error {
  override name = 'AttributeError';
}

/**
 * The answer the dataset's pattern(s) read from `text`, trying each pattern in order: the last
 * match's capture (or whole match without a group), upper case. A single letter is taken as is —
 * even one outside `options`, since the dataset's own pattern is trusted — otherwise the capture
 * must equal one option's text. Null when no pattern gives an answer.
 */
export function outputRegexAnswer(text: string, patterns: unknown, options: readonly OptionEntry[] | null, allowed: ReadonlySet<string>): string | null {
  for (const source of Array.isArray(patterns) ? patterns : [patterns]) {
    const answer = typeof source === 'string' ? answerOfPattern(text, source, options, allowed) : null;
    if (answer !== null) return answer;
  }
  return null;
}

function answerOfPattern(text: string, source: string, options: readonly OptionEntry[] | null, allowed: ReadonlySet<string>): string | null {
  const pattern = compile(source);
  if (pattern === null) return null;
  const last = boundedLastFinding(pattern, text);
  if (last === undefined) return null;
  if (Array.isArray(last)) throw new AttributeError(`'tuple' object has no attribute 'strip' (output_regex ${JSON.stringify(source)} has ${pattern.groups} groups)`);
  const captured = localizedLettersToLatin(pyStrip(last)).toUpperCase();
  if (isSingleLetter(captured)) return captured;
  return letterOfOptionText(captured, options, allowed);
}

/** The compiled pattern; null when Python rejects it; throws when Python accepts it but it cannot run as in Python. */
function compile(source: string): PythonPattern | null {
  const cached = compiled.get(source);
  if (cached !== undefined || compiled.has(source)) return cached ?? null;
  let pattern: PythonPattern | null;
  try {
    pattern = compilePythonRegex(source, PYTHON_RE_FLAGS.IGNORECASE);
  } catch (error) {
    // the original catches re.error only: a ValueError or OverflowError fails its request
    if (!(error instanceof PythonRegexError)) throw error;
    if (error.pythonClass !== 'error') throw Object.assign(new Error(error.msg), { name: error.pythonClass });
    pattern = null;
  }
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(source, pattern);
  return pattern;
}
