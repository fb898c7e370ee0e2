/**
 * `template_metadata.output_regex`: a dataset's own pattern (or list of patterns) for reading the
 * answer, written in Python's regex syntax because the original's datasets are. The common Python
 * spellings are read here (`(?P<name>…)`, `(?P=name)`, a leading `(?ims)`, `\A`, `\Z`, and `\s` as
 * Python's whitespace; `\d`, `\w` and `\b` stay ASCII as in JavaScript); a pattern
 * JavaScript cannot compile anyway, or one with more than one capture group, gives no answer and
 * grading falls back to the grading mode. A pattern runs over the model's text for at most
 * {@link PATTERN_TIMEOUT_MS}: model text is untrusted, and a pattern that backtracks without end
 * (`(a+)+$` on forty a's and a `!`) must not hang the server; it then gives no answer either.
 * @module
 */
import vm from 'node:vm';
import { localizedLettersToLatin } from './localized-letters.js';
import { letterOfOptionText } from './options.js';
import { isSingleLetter, PY_SPACE, pyStrip } from './py-text.js';
import type { OptionEntry } from './options.js';

/** A compiled pattern and how many capture groups it has. */
interface OutputPattern {
  regex: RegExp;
  groups: number;
}

/** How long one pattern may run over one answer (V8 interrupts the match; ordinary ones take microseconds). */
export const PATTERN_TIMEOUT_MS = 250;

// the match runs as a script so that node's script timeout can interrupt it
const sandbox = vm.createContext({ regex: /(?:)/, text: '' });
const lastMatchScript = new vm.Script('[...text.matchAll(regex)].at(-1)');

/** The last match of `regex` in `text`, or `undefined` when there is none or it ran out of time. */
function boundedLastMatch(regex: RegExp, text: string): RegExpMatchArray | undefined {
  sandbox['regex'] = regex;
  sandbox['text'] = text;
  try {
    return lastMatchScript.runInContext(sandbox, { timeout: PATTERN_TIMEOUT_MS }) as RegExpMatchArray | undefined;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    throw error;
  } finally {
    sandbox['text'] = '';
  }
}

const CACHE_LIMIT = 256;
/** Patterns repeat across rows (one per prompt template): compile each once. `null` = unusable. */
const compiled = new Map<string, OutputPattern | null>();

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
  if (pattern === null || pattern.groups > 1) return null;
  const last = boundedLastMatch(pattern.regex, text);
  if (last === undefined) return null;
  const captured = localizedLettersToLatin(pyStrip((pattern.groups === 1 ? last[1] : last[0]) ?? '')).toUpperCase();
  if (isSingleLetter(captured)) return captured;
  return letterOfOptionText(captured, options, allowed);
}

function compile(source: string): OutputPattern | null {
  const cached = compiled.get(source);
  if (cached !== undefined || compiled.has(source)) return cached ?? null;
  let pattern: OutputPattern | null;
  try {
    const { body, flags } = fromPythonSyntax(source);
    const regex = new RegExp(body, `gi${flags}`);
    pattern = { regex, groups: new RegExp(`${body}|`, flags).exec('')!.length - 1 };
  } catch {
    pattern = null;
  }
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(source, pattern);
  return pattern;
}

/**
 * Rewrites Python-only regex spellings to JavaScript ones. Throws a SyntaxError for a leading
 * flag JavaScript has no equivalent of (`x`, verbose mode).
 */
export function fromPythonSyntax(source: string): { body: string; flags: string } {
  let flags = '';
  let rest = source;
  const leading = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (leading !== null) {
    for (const flag of leading[1]!) {
      if (flag === 'x') throw new SyntaxError('verbose regex (?x) is not supported');
      if ((flag === 'm' || flag === 's') && !flags.includes(flag)) flags += flag;
    }
    rest = source.slice(leading[0].length);
  }
  let body = '';
  let inClass = false;
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i]!;
    if (ch === '\\') {
      const next = rest[i + 1] ?? '';
      if (!inClass && next === 'A') body += '(?<![\\s\\S])';
      else if (!inClass && next === 'Z') body += '(?![\\s\\S])';
      // Python's `\s` is its whitespace set (U+0085, U+001C–U+001F too).
      else if (next === 's') body += inClass ? PY_SPACE : `[${PY_SPACE}]`;
      else if (!inClass && next === 'S') body += `[^${PY_SPACE}]`;
      else body += ch + next;
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
      body += ch;
    } else if (ch === '[') {
      inClass = true;
      body += ch;
      // Python reads a `]` right after `[` or `[^` as a literal; JavaScript would close the class.
      if (rest[i + 1] === '^') body += rest[++i];
      if (rest[i + 1] === ']') {
        body += '\\]';
        i++;
      }
    } else if (rest.startsWith('(?P<', i)) {
      body += '(?<';
      i += 3;
    } else if (rest.startsWith('(?P=', i)) {
      const close = rest.indexOf(')', i);
      if (close === -1) throw new SyntaxError('unterminated (?P=name)');
      body += `\\k<${rest.slice(i + 4, close)}>`;
      i = close;
    } else body += ch;
  }
  return { body, flags };
}
