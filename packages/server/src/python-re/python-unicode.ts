/**
 * Python's character classes and case rules for `str` patterns, spelled for JavaScript: what `\w`,
 * `\d` and `\s` match (Unicode by default, ASCII under `re.ASCII`), and which characters a letter
 * matches under `re.IGNORECASE`. Python compares lower-case forms (`str.lower()` of one
 * character, first code point) plus a fixed table of extra equivalences such as `s`/`ſ`, `i`/`ı`
 * and `µ`/`μ`; JavaScript's `i` flag uses Unicode case folding, which differs, so patterns never
 * use it: every letter becomes the class of characters Python would accept.
 * @module
 */
import { CodePointSet } from './code-point-set.js';

/** What a `\w` `\d` `\s` (or its negation) stands for, as a JavaScript `v`-flag class. */
export type CategoryName = 'word' | 'digit' | 'space';

/** `str.isspace()` for one character, as class content. */
const UNICODE_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const UNICODE_CATEGORIES: Record<CategoryName, string> = {
  // str.isalnum() (letters L*, and N* — every N* character has a numeric value) or `_`
  word: '[\\p{L}\\p{N}_]',
  // str.isdecimal(): the decimal digits, Nd
  digit: '[\\p{Nd}]',
  space: `[${UNICODE_SPACE}]`,
};

const ASCII_CATEGORIES: Record<CategoryName, string> = {
  word: '[A-Za-z0-9_]',
  digit: '[0-9]',
  space: '[\\t\\n\\v\\f\\r ]',
};

/** The class for `\w` `\d` `\s` (`negate` for `\W` `\D` `\S`). */
export function categoryClass(name: CategoryName, ascii: boolean, negate: boolean): string {
  const cls = (ascii ? ASCII_CATEGORIES : UNICODE_CATEGORIES)[name];
  return negate ? `[^${cls.slice(1)}` : cls;
}

/**
 * Python's extra case equivalences (beyond equal lower-case forms), between lower-case code
 * points: each group matches any of its members under IGNORECASE.
 */
const EXTRA_CASE_GROUPS: readonly (readonly number[])[] = [
  [0x69, 0x131], // i ı
  [0x73, 0x17f], // s ſ
  [0xb5, 0x3bc], // µ μ
  [0x345, 0x3b9, 0x1fbe], // ypogegrammeni, iota, prosgegrammeni
  [0x390, 0x1fd3],
  [0x3b0, 0x1fe3],
  [0x3b2, 0x3d0], // β ϐ
  [0x3b5, 0x3f5], // ε ϵ
  [0x3b8, 0x3d1], // θ ϑ
  [0x3ba, 0x3f0], // κ ϰ
  [0x3c0, 0x3d6], // π ϖ
  [0x3c1, 0x3f1], // ρ ϱ
  [0x3c2, 0x3c3], // ς σ
  [0x3c6, 0x3d5], // φ ϕ
  [0x432, 0x1c80], // Cyrillic small letters and their historic variants
  [0x434, 0x1c81],
  [0x43e, 0x1c82],
  [0x441, 0x1c83],
  [0x442, 0x1c84, 0x1c85],
  [0x44a, 0x1c86],
  [0x463, 0x1c87],
  [0x1c88, 0xa64b],
  [0x1e61, 0x1e9b], // ṡ ẛ
  [0xfb05, 0xfb06], // ﬅ ﬆ
];

const EXTRA_CASES = new Map<number, readonly number[]>();
for (const group of EXTRA_CASE_GROUPS) {
  for (const cp of group) {
    EXTRA_CASES.set(
      cp,
      group.filter((other) => other !== cp),
    );
  }
}

/** Python's lower-case form of one character: the first code point of its full lower-case mapping. */
export function pythonLower(cp: number): number {
  return String.fromCodePoint(cp).toLowerCase().codePointAt(0)!;
}

function pythonUpper(cp: number): number {
  return String.fromCodePoint(cp).toUpperCase().codePointAt(0)!;
}

/** Python's `iscased`: a character that IGNORECASE treats specially. */
export function isCased(cp: number, ascii: boolean): boolean {
  if (ascii) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  return pythonLower(cp) !== cp || pythonUpper(cp) !== cp;
}

// Characters whose lower-case form differs, and that form. Built on first use (tens of ms).
let lowered: Map<number, number> | undefined;
let loweredSet: CodePointSet | undefined;

function loweredCharacters(): { map: Map<number, number>; set: CodePointSet } {
  if (lowered === undefined) {
    lowered = new Map();
    // Every cased character sits below U+20000.
    const chunk: number[] = [];
    for (let cp = 0; cp < 0x20000; cp++) if (cp < 0xd800 || cp > 0xdfff) chunk.push(cp);
    let all = '';
    for (let i = 0; i < chunk.length; i += 4096) all += String.fromCodePoint(...chunk.slice(i, i + 4096));
    for (const [ch] of all.matchAll(/\p{Changes_When_Lowercased}/gu)) {
      const cp = ch.codePointAt(0)!;
      const lower = pythonLower(cp);
      if (lower !== cp) lowered.set(cp, lower);
    }
    loweredSet = CodePointSet.ofCodePoints(lowered.keys());
  }
  return { map: lowered, set: loweredSet! };
}

/**
 * The characters that match a class whose members are `members` under IGNORECASE: Python lowers
 * each member (adding its extra equivalents) and accepts a character whose lower-case form is
 * among them.
 */
export function caselessClass(members: CodePointSet, ascii: boolean): CodePointSet {
  if (ascii) {
    const extra: number[] = [];
    for (const [lo, hi] of members.ranges) {
      for (let cp = Math.max(lo, 0x41); cp <= Math.min(hi, 0x7a); cp++) {
        if (cp <= 0x5a) extra.push(cp + 0x20);
        else if (cp >= 0x61) extra.push(cp - 0x20);
      }
    }
    return members.union(CodePointSet.ofCodePoints(extra));
  }
  const { map, set } = loweredCharacters();
  // The lower-case forms of the members…
  const lowerForms: number[] = [];
  for (const cp of members.minus(set.complement()).codePoints()) lowerForms.push(map.get(cp)!);
  let lowers = members.minus(set).union(CodePointSet.ofCodePoints(lowerForms));
  // …with their extra equivalents…
  const extra: number[] = [];
  for (const [cp, others] of EXTRA_CASES) if (lowers.has(cp)) extra.push(...others);
  lowers = lowers.union(CodePointSet.ofCodePoints(extra));
  // …and every character whose lower-case form is one of them.
  const upper: number[] = [];
  for (const [cp, lower] of map) if (lowers.has(lower)) upper.push(cp);
  return lowers.minus(set).union(CodePointSet.ofCodePoints(upper));
}

const literalSets = [new Map<number, CodePointSet>(), new Map<number, CodePointSet>()];

/** The characters a literal `cp` matches under IGNORECASE (remembered: patterns repeat letters). */
export function caselessLiteral(cp: number, ascii: boolean): CodePointSet {
  const known = literalSets[ascii ? 1 : 0]!;
  let set = known.get(cp);
  if (set === undefined) {
    const single = CodePointSet.ofCodePoints([cp]);
    set = isCased(cp, ascii) ? caselessClass(single, ascii) : single;
    known.set(cp, set);
  }
  return set;
}
