// Python's `\w`, `\d`, `\s` and its IGNORECASE case data, checked for every code point Python's
// Unicode database assigns: the translation's classes and lower-case forms must agree with
// CPython's. JavaScript's Unicode is newer than Python 3.11's (14.0); a character whose case
// partner only a newer Unicode assigns is the one allowed difference.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { askCPython } from './cpython-oracle.js';
import { caselessLiteral, categoryClass, isCased, pythonLower } from '../../src/python-re/python-unicode.js';
import type { CategoryName } from '../../src/python-re/python-unicode.js';

interface Tables {
  assigned: number[][];
  word: number[][];
  digit: number[][];
  space: number[][];
  lower: number[][];
  cased: number[][];
}

const tables = askCPython<Tables>({ kind: 'unicode' });
const members = (ranges: number[][]): Set<number> => {
  const out = new Set<number>();
  for (const [lo, hi] of ranges) for (let cp = lo!; cp <= hi!; cp++) out.add(cp);
  return out;
};
const assigned = members(tables.assigned);

describe(`Python's Unicode tables (${assigned.size} code points assigned in Python's Unicode)`, () => {
  for (const name of ['word', 'digit', 'space'] as CategoryName[]) {
    it(`\\${name[0]} matches exactly what CPython's does`, () => {
      const python = members(tables[name]);
      const regex = new RegExp(categoryClass(name, false, false), 'v');
      const differ = [...assigned].filter((cp) => regex.test(String.fromCodePoint(cp)) !== python.has(cp));
      assert.deepEqual(
        differ.map((cp) => cp.toString(16)),
        [],
      );
    });
  }

  it("lower-case forms are CPython's", () => {
    const python = new Map(tables.lower.map(([cp, lower]) => [cp!, lower!]));
    const differ = [...assigned].filter((cp) => pythonLower(cp) !== (python.get(cp) ?? cp));
    assert.deepEqual(
      differ.map((cp) => cp.toString(16)),
      [],
    );
  });

  it("cased characters are CPython's, but for case pairs only a newer Unicode makes", () => {
    const python = members(tables.cased);
    const differ = [...assigned].filter((cp) => isCased(cp, false) !== python.has(cp));
    for (const cp of differ) {
      const partners = [...caselessLiteral(cp, false).codePoints()].filter((other) => other !== cp);
      assert.ok(partners.length > 0 && partners.every((other) => !assigned.has(other)), `U+${cp.toString(16)} differs from CPython`);
    }
  });
});
