/**
 * A set of Unicode code points as sorted, disjoint, non-adjacent ranges, and its spelling as a
 * JavaScript character class for a `u`-flag RegExp.
 * @module
 */

/** One inclusive range of code points. */
export type CodePointRange = readonly [number, number];

const MAX_CODE_POINT = 0x10ffff;

/**
 * Any character, as a class. Not `[^]`: under the `v` flag Node 20's V8 repeats `[^]` at most
 * once (`[^]*` with `v` matches one character).
 */
export const ANY_CHAR = '[\\u0000-\\u{10ffff}]';

/** An immutable set of code points. */
export class CodePointSet {
  private constructor(readonly ranges: readonly CodePointRange[]) {}

  static readonly EMPTY = new CodePointSet([]);
  static readonly ALL = new CodePointSet([[0, MAX_CODE_POINT]]);

  /** The set of the given ranges (any order, overlaps allowed). */
  static of(ranges: Iterable<CodePointRange>): CodePointSet {
    const sorted = [...ranges].filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const [lo, hi] of sorted) {
      const last = merged.at(-1);
      if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
      else merged.push([lo, hi]);
    }
    return new CodePointSet(merged);
  }

  /** The set of the given code points. */
  static ofCodePoints(codePoints: Iterable<number>): CodePointSet {
    return CodePointSet.of([...codePoints].map((cp) => [cp, cp] as const));
  }

  has(cp: number): boolean {
    let lo = 0;
    let hi = this.ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [a, b] = this.ranges[mid]!;
      if (cp < a) hi = mid - 1;
      else if (cp > b) lo = mid + 1;
      else return true;
    }
    return false;
  }

  get isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  union(other: CodePointSet): CodePointSet {
    return CodePointSet.of([...this.ranges, ...other.ranges]);
  }

  complement(): CodePointSet {
    const out: CodePointRange[] = [];
    let next = 0;
    for (const [lo, hi] of this.ranges) {
      if (lo > next) out.push([next, lo - 1]);
      next = hi + 1;
    }
    if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
    return new CodePointSet(out);
  }

  minus(other: CodePointSet): CodePointSet {
    return this.complement().union(other).complement();
  }

  /** Every code point, in order (for sets known to be small). */
  *codePoints(): Generator<number> {
    for (const [lo, hi] of this.ranges) for (let cp = lo; cp <= hi; cp++) yield cp;
  }

  /** A JavaScript class matching exactly this set (`[]` for none). */
  toClass(): string {
    let body = '';
    for (const [lo, hi] of this.ranges) body += lo === hi ? classChar(lo) : `${classChar(lo)}${hi === lo + 1 ? '' : '-'}${classChar(hi)}`;
    return `[${body}]`;
  }
}

/** A code point spelled safely inside a `u`-flag class. */
function classChar(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCodePoint(cp);
  return cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\u{${cp.toString(16)}}`;
}
