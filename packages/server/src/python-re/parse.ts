/**
 * Parsing a Python `re` pattern (a `str` pattern, Python 3.11 syntax) into a {@link Node} tree,
 * rejecting what Python rejects with the message and position Python gives. The grammar and every
 * error follow CPython's own parser, step for step, so that a pattern valid here is valid there
 * and means the same.
 * @module
 */
import { PythonRegexError, UnsupportedPythonRegexError } from './errors.js';
import { cpLen, pyRepr, Tokenizer } from './tokenizer.js';
import { width } from './width.js';
import { FLAG, FLAG_LETTERS, GLOBAL_FLAGS, MAXREPEAT, TYPE_FLAGS } from './syntax.js';
import type { ClassItem, Node, ParsedPattern } from './syntax.js';
import type { CategoryName } from './python-unicode.js';

const SPECIAL = new Set('.\\[{()*+?^$|');
const REPEAT_CHARS = new Set('*+?{');
const DIGITS = new Set('0123456789');
const OCT_DIGITS = new Set('01234567');
const HEX_DIGITS = new Set('0123456789abcdefABCDEF');
const WHITESPACE = new Set(' \t\n\r\v\f');
const ASCII_LETTER = /^[A-Za-z]$/;
const IDENTIFIER = /^[\p{XID_Start}_]\p{XID_Continue}*$/u;
const MAXGROUPS = 1073741823;

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  '\\a': 0x07,
  '\\b': 0x08,
  '\\f': 0x0c,
  '\\n': 0x0a,
  '\\r': 0x0d,
  '\\t': 0x09,
  '\\v': 0x0b,
  '\\\\': 0x5c,
};
const CATEGORY_ESCAPES: Readonly<Record<string, Node>> = {
  '\\A': { type: 'anchor', kind: 'beginning_string' },
  '\\Z': { type: 'anchor', kind: 'end_string' },
  '\\b': { type: 'anchor', kind: 'boundary' },
  '\\B': { type: 'anchor', kind: 'non_boundary' },
  '\\d': category('digit', false),
  '\\D': category('digit', true),
  '\\s': category('space', false),
  '\\S': category('space', true),
  '\\w': category('word', false),
  '\\W': category('word', true),
};

function category(name: CategoryName, negate: boolean): Node {
  return { type: 'category', name, negate };
}

class ParseState {
  flags = 0;
  readonly groupNames = new Map<string, number>();
  readonly groupWidths: Array<[number, number] | null> = [null];
  lookbehindGroups: number | null = null;
  readonly groupRefPositions = new Map<number, number>();

  get groups(): number {
    return this.groupWidths.length;
  }

  openGroup(name: string | null, source: Tokenizer): number {
    const gid = this.groups;
    this.groupWidths.push(null);
    if (this.groups > MAXGROUPS) throw source.error('too many groups');
    if (name !== null) {
      const previous = this.groupNames.get(name);
      if (previous !== undefined) throw source.error(`redefinition of group name ${pyRepr(name)} as group ${gid}; was group ${previous}`, cpLen(name) + 1);
      this.groupNames.set(name, gid);
    }
    return gid;
  }

  closeGroup(gid: number, body: Node[]): void {
    this.groupWidths[gid] = width(body, this);
  }

  isClosed(gid: number): boolean {
    return gid < this.groups && this.groupWidths[gid] !== null;
  }

  checkLookbehindGroup(gid: number, source: Tokenizer): void {
    if (this.lookbehindGroups === null) return;
    if (!this.isClosed(gid)) throw source.error('cannot refer to an open group');
    if (gid >= this.lookbehindGroups) throw source.error('cannot refer to group defined in the same lookbehind subpattern');
  }
}

/** Parses `pattern` with the compile-time `flags` (Python's `re.compile(pattern, flags)`). */
export function parsePattern(pattern: string, flags = 0): ParsedPattern {
  const source = new Tokenizer(pattern);
  const state = new ParseState();
  state.flags = flags;
  const nodes = parseAlternatives(source, state, (flags & FLAG.VERBOSE) !== 0, 0);
  if ((state.flags & FLAG.LOCALE) !== 0) throw new PythonRegexError('cannot use LOCALE flag with a str pattern', pattern, null, 'ValueError');
  if ((state.flags & FLAG.ASCII) !== 0 && (state.flags & FLAG.UNICODE) !== 0) throw new PythonRegexError('ASCII and UNICODE flags are incompatible', pattern, null, 'ValueError');
  if (source.next !== null) throw source.error('unbalanced parenthesis');
  for (const [gid, pos] of state.groupRefPositions) if (gid >= state.groups) throw new PythonRegexError(`invalid group reference ${gid}`, pattern, pos);
  return { pattern, nodes, flags: state.flags, groups: state.groups, groupNames: state.groupNames, groupWidths: state.groupWidths };
}

function parseAlternatives(source: Tokenizer, state: ParseState, verbose: boolean, nested: number): Node[] {
  const alternatives: Node[][] = [];
  for (;;) {
    alternatives.push(parseSequence(source, state, verbose, nested + 1, nested === 0 && alternatives.length === 0));
    if (!source.match('|')) break;
    // Global flags at the start reach the top level's later alternatives.
    if (nested === 0) verbose = (state.flags & FLAG.VERBOSE) !== 0;
  }
  return alternatives.length === 1 ? alternatives[0]! : [{ type: 'branch', alternatives }];
}

function parseSequence(source: Tokenizer, state: ParseState, verbose: boolean, nested: number, first: boolean): Node[] {
  const items: Node[] = [];
  for (;;) {
    const token = source.next;
    if (token === null || token === '|' || token === ')') break;
    source.get();
    if (verbose) {
      if (WHITESPACE.has(token)) continue;
      if (token === '#') {
        for (let t = source.get(); t !== null && t !== '\n'; t = source.get());
        continue;
      }
    }
    if (token[0] === '\\') items.push(parseEscape(source, token, state));
    else if (!SPECIAL.has(token)) items.push({ type: 'char', cp: token.codePointAt(0)! });
    else if (token === '[') items.push(parseClass(source));
    else if (REPEAT_CHARS.has(token)) {
      const here = source.tell();
      let min: number;
      let max: number;
      if (token === '?') [min, max] = [0, 1];
      else if (token === '*') [min, max] = [0, MAXREPEAT];
      else if (token === '+') [min, max] = [1, MAXREPEAT];
      else {
        if (source.next === '}') {
          items.push({ type: 'char', cp: 0x7b });
          continue;
        }
        const lo = source.getWhile(Number.MAX_SAFE_INTEGER, DIGITS);
        const hi = source.match(',') ? source.getWhile(Number.MAX_SAFE_INTEGER, DIGITS) : lo;
        if (!source.match('}')) {
          items.push({ type: 'char', cp: 0x7b });
          source.seek(here);
          continue;
        }
        [min, max] = [0, MAXREPEAT];
        if (lo !== '') {
          min = Number(lo);
          if (min >= MAXREPEAT) throw new PythonRegexError('the repetition number is too large', source.pattern, null, 'OverflowError');
        }
        if (hi !== '') {
          max = Number(hi);
          if (max >= MAXREPEAT) throw new PythonRegexError('the repetition number is too large', source.pattern, null, 'OverflowError');
          if (max < min) throw source.error('min repeat greater than max repeat', source.tell() - here);
        }
      }
      const item = items.at(-1);
      if (item === undefined || item.type === 'anchor') throw source.error('nothing to repeat', source.tell() - here + token.length);
      if (item.type === 'repeat') throw source.error('multiple repeat', source.tell() - here + token.length);
      const body = item.type === 'group' && item.group === null && item.addFlags === 0 && item.delFlags === 0 ? item.body : [item];
      const mode = source.match('?') ? 'lazy' : source.match('+') ? 'possessive' : 'greedy';
      items[items.length - 1] = { type: 'repeat', min, max, mode, body };
    } else if (token === '.') items.push({ type: 'any' });
    else if (token === '(') {
      const group = parseGroup(source, state, verbose, nested, first && items.length === 0);
      if (group === 'flags') verbose = (state.flags & FLAG.VERBOSE) !== 0;
      else if (group !== null) items.push(group);
    } else if (token === '^') items.push({ type: 'anchor', kind: 'beginning' });
    else if (token === '$') items.push({ type: 'anchor', kind: 'end' });
  }
  // Plain non-capturing groups dissolve into the sequence, as in Python.
  return items.flatMap((item) => (item.type === 'group' && item.group === null && item.addFlags === 0 && item.delFlags === 0 ? item.body : [item]));
}

/** After `(`: a group, a lookaround, a backreference, a comment (null) or global flags ('flags'). */
function parseGroup(source: Tokenizer, state: ParseState, verbose: boolean, nested: number, atStart: boolean): Node | null | 'flags' {
  const start = source.tell() - 1;
  let capture = true;
  let atomic = false;
  let name: string | null = null;
  let addFlags = 0;
  let delFlags = 0;
  if (source.match('?')) {
    let ch = source.get();
    if (ch === null) throw source.error('unexpected end of pattern');
    if (ch === 'P') {
      if (source.match('<')) {
        name = source.getUntil('>', 'group name');
        if (!IDENTIFIER.test(name)) throw source.error(`bad character in group name ${pyRepr(name)}`, cpLen(name) + 1);
      } else if (source.match('=')) {
        const ref = source.getUntil(')', 'group name');
        if (!IDENTIFIER.test(ref)) throw source.error(`bad character in group name ${pyRepr(ref)}`, cpLen(ref) + 1);
        const gid = state.groupNames.get(ref);
        if (gid === undefined) throw source.error(`unknown group name ${pyRepr(ref)}`, cpLen(ref) + 1);
        if (!state.isClosed(gid)) throw source.error('cannot refer to an open group', cpLen(ref) + 1);
        state.checkLookbehindGroup(gid, source);
        return { type: 'backref', group: gid };
      } else {
        const next = source.get();
        if (next === null) throw source.error('unexpected end of pattern');
        throw source.error(`unknown extension ?P${next}`, cpLen(next) + 2);
      }
    } else if (ch === ':') capture = false;
    else if (ch === '#') {
      for (;;) {
        if (source.next === null) throw source.error('missing ), unterminated comment', source.tell() - start);
        if (source.get() === ')') break;
      }
      return null;
    } else if (ch === '=' || ch === '!' || ch === '<') {
      let behind = false;
      let outerLookbehind: number | null = null;
      if (ch === '<') {
        ch = source.get();
        if (ch === null) throw source.error('unexpected end of pattern');
        if (ch !== '=' && ch !== '!') throw source.error(`unknown extension ?<${ch}`, cpLen(ch) + 2);
        behind = true;
        outerLookbehind = state.lookbehindGroups;
        if (outerLookbehind === null) state.lookbehindGroups = state.groups;
      }
      const body = parseAlternatives(source, state, verbose, nested + 1);
      if (behind && outerLookbehind === null) state.lookbehindGroups = null;
      if (!source.match(')')) throw source.error('missing ), unterminated subpattern', source.tell() - start);
      return { type: 'look', behind, negate: ch === '!', body };
    } else if (ch === '(') {
      const condition = source.getUntil(')', 'group name');
      const length = cpLen(condition) + 1;
      let gid: number;
      if (IDENTIFIER.test(condition)) {
        const named = state.groupNames.get(condition);
        if (named === undefined) throw source.error(`unknown group name ${pyRepr(condition)}`, length);
        gid = named;
      } else {
        if (!/^[0-9]+$/.test(condition)) throw source.error(`bad character in group name ${pyRepr(condition)}`, length);
        gid = Number(condition);
        if (gid === 0) throw source.error('bad group number', length);
        if (gid >= MAXGROUPS) throw source.error(`invalid group reference ${gid}`, length);
        // A reference to a later group is checked once the whole pattern is read.
        if (!state.groupRefPositions.has(gid)) state.groupRefPositions.set(gid, source.tell() - length);
      }
      state.checkLookbehindGroup(gid, source);
      const yes = parseSequence(source, state, verbose, nested + 1, false);
      let no: Node[] | null = null;
      if (source.match('|')) {
        no = parseSequence(source, state, verbose, nested + 1, false);
        if (source.next === '|') throw source.error('conditional backref with more than two branches');
      }
      if (!source.match(')')) throw source.error('missing ), unterminated subpattern', source.tell() - start);
      return { type: 'conditional', group: gid, yes, no };
    } else if (ch === '>') {
      capture = false;
      atomic = true;
    } else if (ch in FLAG_LETTERS || ch === '-') {
      const scoped = parseFlags(source, state, ch);
      if (scoped === null) {
        if (!atStart) throw source.error('global flags not at the start of the expression', source.tell() - start);
        return 'flags';
      }
      [addFlags, delFlags] = scoped;
      capture = false;
    } else throw source.error(`unknown extension ?${ch}`, cpLen(ch) + 1);
  }
  const gid = capture ? state.openGroup(name, source) : null;
  const innerVerbose = (verbose || (addFlags & FLAG.VERBOSE) !== 0) && (delFlags & FLAG.VERBOSE) === 0;
  const body = parseAlternatives(source, state, innerVerbose, nested + 1);
  if (!source.match(')')) throw source.error('missing ), unterminated subpattern', source.tell() - start);
  if (gid !== null) state.closeGroup(gid, body);
  if (atomic) return { type: 'atomic', body };
  return { type: 'group', group: gid, addFlags, delFlags, body };
}

/** Inline flags after `(?`: null for global ones `(?ai)`, else the [added, removed] of `(?i-m:…)`. */
function parseFlags(source: Tokenizer, state: ParseState, first: string): [number, number] | null {
  let ch: string | null = first;
  let addFlags = 0;
  let delFlags = 0;
  if (ch !== '-') {
    for (;;) {
      const flag = FLAG_LETTERS[ch]!;
      if (ch === 'L') throw source.error("bad inline flags: cannot use 'L' flag with a str pattern");
      addFlags |= flag;
      if ((flag & TYPE_FLAGS) !== 0 && (addFlags & TYPE_FLAGS) !== flag) throw source.error("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
      ch = source.get();
      if (ch === null) throw source.error('missing -, : or )');
      if (ch === ')' || ch === '-' || ch === ':') break;
      if (!(ch in FLAG_LETTERS)) throw source.error(isAlpha(ch) ? 'unknown flag' : 'missing -, : or )', cpLen(ch));
    }
  }
  if (ch === ')') {
    state.flags |= addFlags;
    return null;
  }
  if ((addFlags & GLOBAL_FLAGS) !== 0) throw source.error('bad inline flags: cannot turn on global flag', 1);
  if (ch === '-') {
    ch = source.get();
    if (ch === null) throw source.error('missing flag');
    if (!(ch in FLAG_LETTERS)) throw source.error(isAlpha(ch) ? 'unknown flag' : 'missing flag', cpLen(ch));
    for (;;) {
      const flag = FLAG_LETTERS[ch]!;
      if ((flag & TYPE_FLAGS) !== 0) throw source.error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
      delFlags |= flag;
      ch = source.get();
      if (ch === null) throw source.error('missing :');
      if (ch === ':') break;
      if (!(ch in FLAG_LETTERS)) throw source.error(isAlpha(ch) ? 'unknown flag' : 'missing :', cpLen(ch));
    }
  }
  if ((delFlags & GLOBAL_FLAGS) !== 0) throw source.error('bad inline flags: cannot turn off global flag', 1);
  if ((addFlags & delFlags) !== 0) throw source.error('bad inline flags: flag turned on and off', 1);
  return [addFlags, delFlags];
}

/** `str.isalpha()` of a token (a two-character escape token is never alphabetic). */
function isAlpha(token: string): boolean {
  return /^\p{L}+$/u.test(token);
}

function parseClass(source: Tokenizer): Node {
  const here = source.tell() - 1;
  const items: ClassItem[] = [];
  const negate = source.match('^');
  for (;;) {
    const token = source.get();
    if (token === null) throw source.error('unterminated character set', source.tell() - here);
    if (token === ']' && items.length > 0) break;
    const first = token[0] === '\\' ? parseClassEscape(source, token) : ({ type: 'char', cp: token.codePointAt(0)! } as const);
    if (source.match('-')) {
      const that = source.get();
      if (that === null) throw source.error('unterminated character set', source.tell() - here);
      if (that === ']') {
        items.push(first, { type: 'char', cp: 0x2d });
        break;
      }
      const second = that[0] === '\\' ? parseClassEscape(source, that) : ({ type: 'char', cp: that.codePointAt(0)! } as const);
      const offset = cpLen(token) + 1 + cpLen(that);
      if (first.type !== 'char' || second.type !== 'char') throw source.error(`bad character range ${token}-${that}`, offset);
      if (second.cp < first.cp) throw source.error(`bad character range ${token}-${that}`, offset);
      items.push({ type: 'range', lo: first.cp, hi: second.cp });
    } else items.push(first);
  }
  return { type: 'class', negate, items };
}

/** `\x..`, `\u....`, `\U........` (after the first two characters), or null when not one of them. */
function hexEscape(source: Tokenizer, escape: string): number | null {
  const kind = escape[1];
  const digits = kind === 'x' ? 2 : kind === 'u' ? 4 : kind === 'U' ? 8 : 0;
  if (digits === 0) return null;
  const full = escape + source.getWhile(digits, HEX_DIGITS);
  if (full.length !== digits + 2) throw source.error(`incomplete escape ${full}`, full.length);
  const cp = parseInt(full.slice(2), 16);
  if (cp > 0x10ffff) throw source.error(`bad escape ${full}`, full.length);
  return cp;
}

function parseClassEscape(source: Tokenizer, escape: string): ClassItem {
  const simple = SIMPLE_ESCAPES[escape];
  if (simple !== undefined) return { type: 'char', cp: simple };
  const cat = CATEGORY_ESCAPES[escape];
  if (cat?.type === 'category') return { type: 'category', name: cat.name, negate: cat.negate };
  const kind = escape[1]!;
  const hex = hexEscape(source, escape);
  if (hex !== null) return { type: 'char', cp: hex };
  if (kind === 'N') throw new UnsupportedPythonRegexError('a named character escape \\N{…}', source.pattern);
  if (OCT_DIGITS.has(kind)) {
    const full = escape + source.getWhile(2, OCT_DIGITS);
    const cp = parseInt(full.slice(1), 8);
    if (cp > 0o377) throw source.error(`octal escape value ${full} outside of range 0-0o377`, full.length);
    return { type: 'char', cp };
  }
  if (DIGITS.has(kind)) throw source.error(`bad escape ${escape}`, escape.length);
  if (ASCII_LETTER.test(kind)) throw source.error(`bad escape ${escape}`, escape.length);
  return { type: 'char', cp: escape.codePointAt(1)! };
}

function parseEscape(source: Tokenizer, escape: string, state: ParseState): Node {
  const cat = CATEGORY_ESCAPES[escape];
  if (cat !== undefined) return cat;
  const simple = SIMPLE_ESCAPES[escape];
  if (simple !== undefined) return { type: 'char', cp: simple };
  const kind = escape[1]!;
  const hex = hexEscape(source, escape);
  if (hex !== null) return { type: 'char', cp: hex };
  if (kind === 'N') throw new UnsupportedPythonRegexError('a named character escape \\N{…}', source.pattern);
  if (kind === '0') {
    const full = escape + source.getWhile(2, OCT_DIGITS);
    return { type: 'char', cp: parseInt(full.slice(1), 8) };
  }
  if (DIGITS.has(kind)) {
    let full = escape;
    if (source.next !== null && DIGITS.has(source.next)) {
      full += source.get()!;
      if (OCT_DIGITS.has(full[1]!) && OCT_DIGITS.has(full[2]!) && source.next !== null && OCT_DIGITS.has(source.next)) {
        full += source.get()!;
        const cp = parseInt(full.slice(1), 8);
        if (cp > 0o377) throw source.error(`octal escape value ${full} outside of range 0-0o377`, full.length);
        return { type: 'char', cp };
      }
    }
    const group = Number(full.slice(1));
    if (group < state.groups) {
      if (!state.isClosed(group)) throw source.error('cannot refer to an open group', full.length);
      state.checkLookbehindGroup(group, source);
      return { type: 'backref', group };
    }
    throw source.error(`invalid group reference ${group}`, full.length - 1);
  }
  if (ASCII_LETTER.test(kind)) throw source.error(`bad escape ${escape}`, escape.length);
  return { type: 'char', cp: escape.codePointAt(1)! };
}
