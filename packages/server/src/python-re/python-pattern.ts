/**
 * `compilePythonRegex(pattern, flags)`: Python's `re.compile` for `str` patterns, run by
 * JavaScript's engine. The pattern is parsed and checked when compiled — an invalid or
 * untranslatable pattern throws there, never while matching — and the methods follow Python's
 * `re.Pattern`: `search`, `match`, `fullmatch`, and `finditer`/`findall`/`split`/`sub` with
 * Python's rules for empty matches. Positions are JavaScript string indices (UTF-16).
 * @module
 */
import { ANY_CHAR } from './code-point-set.js';
import { emitPattern } from './emit.js';
import type { EmittedPattern } from './emit.js';
import type { ParsedPattern } from './syntax.js';
import { UnsupportedPythonRegexError } from './errors.js';
import { parsePattern } from './parse.js';

/** One match, read as Python's `re.Match`: groups by number or name, `undefined` for a group that did not take part. */
export class PythonMatch {
  constructor(
    private readonly result: RegExpExecArray,
    private readonly pattern: PythonPattern,
    private readonly groupIndex: readonly number[],
  ) {}

  /** Start of the whole match. */
  get start(): number {
    return this.result.index;
  }

  /** End of the whole match. */
  get end(): number {
    return this.result.index + this.result[0].length;
  }

  /** `m.group(n)` / `m.group("name")`. */
  group(which: number | string = 0): string | undefined {
    return this.result[this.jsIndex(which)];
  }

  /** `m.span(n)`: [start, end], or [-1, -1] for a group that did not take part. */
  span(which: number | string = 0): [number, number] {
    const span = this.result.indices?.[this.jsIndex(which)];
    return span === undefined ? [-1, -1] : [span[0], span[1]];
  }

  /** `m.groups()`: groups 1…n. */
  groups(): Array<string | undefined> {
    const out: Array<string | undefined> = [];
    for (let i = 1; i < this.pattern.groups + 1; i++) out.push(this.group(i));
    return out;
  }

  private jsIndex(which: number | string): number {
    const group = typeof which === 'number' ? which : this.pattern.groupNames.get(which);
    if (group === undefined || group < 0 || group > this.pattern.groups) throw new RangeError(`no such group: ${which}`);
    return this.groupIndex[group]!;
  }
}

interface Variant {
  regex: RegExp;
  groupIndex: number[];
}

/** A compiled Python pattern. */
export class PythonPattern {
  /** Number of capture groups (Python's `pattern.groups`). */
  readonly groups: number;
  /** Group names and their numbers (`pattern.groupindex`). */
  readonly groupNames: ReadonlyMap<string, number>;
  private readonly searching: Variant;
  private readonly main: EmittedPattern;
  private readonly parsed: ParsedPattern;
  private anchoredVariant: Variant | undefined;
  private wholeVariant: Variant | undefined;
  private nonEmptyVariant: Variant | undefined;

  constructor(
    readonly pattern: string,
    readonly flags = 0,
  ) {
    this.parsed = parsePattern(pattern, flags);
    this.groups = this.parsed.groups - 1;
    this.groupNames = this.parsed.groupNames;
    this.main = emitPattern(this.parsed);
    this.searching = variant(this.main.source, 'g', this.main.groupIndex, pattern);
  }

  // The other forms are built on first use; each is valid whenever the searching one is.
  private get anchored(): Variant {
    return (this.anchoredVariant ??= variant(this.main.source, 'y', this.main.groupIndex, this.pattern));
  }

  private get whole(): Variant {
    return (this.wholeVariant ??= variant(`(?:${this.main.source})(?!${ANY_CHAR})`, 'y', this.main.groupIndex, this.pattern));
  }

  /** A match that must not be empty: group 1 holds the rest of the text, which an empty match would leave whole. */
  private get nonEmpty(): Variant {
    if (this.nonEmptyVariant === undefined) {
      const shifted = emitPattern(this.parsed, 1);
      this.nonEmptyVariant = variant(`(?=(${ANY_CHAR}*))(?:${shifted.source})(?!\\1(?!${ANY_CHAR}))`, 'y', shifted.groupIndex, this.pattern);
    }
    return this.nonEmptyVariant;
  }

  /** `pattern.search(text, pos)`: the first match at or after `pos`. */
  search(text: string, pos = 0): PythonMatch | null {
    return this.run(this.searching, text, pos);
  }

  /** `pattern.match(text, pos)`: a match starting at `pos`. */
  match(text: string, pos = 0): PythonMatch | null {
    return this.run(this.anchored, text, pos);
  }

  /** `pattern.fullmatch(text)`. */
  fullmatch(text: string): PythonMatch | null {
    return this.run(this.whole, text, 0);
  }

  /** `pattern.finditer(text)`: after an empty match the next one may start there only if it is not empty. */
  *finditer(text: string): Generator<PythonMatch> {
    let pos = 0;
    let mustAdvance = false;
    while (pos <= text.length) {
      let found: PythonMatch | null;
      if (mustAdvance) {
        found = this.run(this.nonEmpty, text, pos);
        if (found === null) {
          if (pos >= text.length) return;
          found = this.search(text, pos + (text.codePointAt(pos)! > 0xffff ? 2 : 1));
        }
      } else found = this.search(text, pos);
      if (found === null) return;
      yield found;
      mustAdvance = found.end === found.start;
      pos = found.end;
    }
  }

  /** `pattern.findall(text)`: whole matches, the one group's text, or a tuple of groups; `''` for a group that did not match. */
  findall(text: string): Array<string | string[]> {
    const out: Array<string | string[]> = [];
    for (const m of this.finditer(text)) {
      if (this.groups === 0) out.push(m.group(0)!);
      else if (this.groups === 1) out.push(m.group(1) ?? '');
      else out.push(m.groups().map((g) => g ?? ''));
    }
    return out;
  }

  /** `pattern.split(text, maxsplit)`: pieces between matches, each match's groups in between. */
  split(text: string, maxsplit = 0): Array<string | undefined> {
    const out: Array<string | undefined> = [];
    let last = 0;
    let count = 0;
    for (const m of this.finditer(text)) {
      if (maxsplit > 0 && count >= maxsplit) break;
      out.push(text.slice(last, m.start), ...m.groups());
      last = m.end;
      count++;
    }
    out.push(text.slice(last));
    return out;
  }

  /** `pattern.sub(replace, text, count)` with a function replacement. */
  sub(text: string, replace: (m: PythonMatch) => string, count = 0): string {
    let out = '';
    let last = 0;
    let done = 0;
    for (const m of this.finditer(text)) {
      if (count > 0 && done >= count) break;
      out += text.slice(last, m.start) + replace(m);
      last = m.end;
      done++;
    }
    return out + text.slice(last);
  }

  private run(which: Variant, text: string, pos: number): PythonMatch | null {
    which.regex.lastIndex = pos;
    let result = which.regex.exec(text);
    // V8 tries a search between the two halves of a surrogate pair too, where a match of only
    // lookarounds can succeed; Python has no such position, so search on from the next one.
    while (result !== null && splitsPair(text, result.index)) {
      if (which.regex.sticky) return null;
      which.regex.lastIndex = result.index + 1;
      result = which.regex.exec(text);
    }
    return result === null ? null : new PythonMatch(result, this, which.groupIndex);
  }
}

/** True when `index` falls between the two halves of a surrogate pair. */
function splitsPair(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

function variant(source: string, flags: string, groupIndex: number[], pattern: string): Variant {
  try {
    return { regex: new RegExp(source, `dv${flags}`), groupIndex };
  } catch (error) {
    throw new UnsupportedPythonRegexError(`this pattern (JavaScript rejects its translation: ${(error as Error).message})`, pattern);
  }
}

/** `re.compile(pattern, flags)`; throws {@link PythonRegexError} or {@link UnsupportedPythonRegexError}. */
export function compilePythonRegex(pattern: string, flags = 0): PythonPattern {
  return new PythonPattern(pattern, flags);
}
