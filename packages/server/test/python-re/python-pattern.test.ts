// The `re.Pattern` methods of a compiled Python pattern, and how compiling fails: Python's own
// error (message and position as `re.error` gives them), or a refusal naming the construct.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compilePythonRegex, PYTHON_RE_FLAGS, PythonRegexError, UnsupportedPythonRegexError } from '../../src/python-re/index.js';

describe('compilePythonRegex', () => {
  it('search, match and fullmatch anchor as Python does', () => {
    const p = compilePythonRegex('a+');
    assert.equal(p.search('xaay')?.group(), 'aa');
    assert.equal(p.match('xaay'), null);
    assert.equal(p.match('xaay', 1)?.group(), 'aa');
    assert.equal(p.fullmatch('aay'), null);
    assert.equal(compilePythonRegex('a|ab').fullmatch('ab')?.group(), 'ab');
  });

  it('names and numbers groups as Python does, helper groups hidden', () => {
    const p = compilePythonRegex('(?>(?P<first>\\w))(x)++(?P=first)');
    assert.equal(p.groups, 2);
    const m = p.search('-axxa')!;
    assert.deepEqual([m.group('first'), m.group(2), m.span(2)], ['a', 'x', [3, 4]]);
    assert.throws(() => m.group(3), RangeError);
  });

  it("findall, split and sub follow Python's rules for empty matches", () => {
    assert.deepEqual(compilePythonRegex('x*').findall('axb'), ['', 'x', '', '']);
    assert.deepEqual(compilePythonRegex('(a)(b)?').findall('a ab'), [
      ['a', ''],
      ['a', 'b'],
    ]);
    assert.deepEqual(compilePythonRegex('\\.\\s*$').split('1.5. \n'), ['1.5', '']);
    assert.deepEqual(compilePythonRegex(',').split('a,b,c', 1), ['a', 'b,c']);
    assert.equal(
      compilePythonRegex('(\\d+),(\\d+)').sub('1,000 and ٣,٣', (m) => m.group(1)! + m.group(2)!),
      '1000 and ٣٣',
    );
  });

  it('takes Python flag values', () => {
    assert.equal(compilePythonRegex('K', PYTHON_RE_FLAGS.IGNORECASE).search('\u212a')?.group(), '\u212a');
    assert.equal(compilePythonRegex('K', PYTHON_RE_FLAGS.IGNORECASE | PYTHON_RE_FLAGS.ASCII).search('\u212a'), null);
  });

  it("throws Python's error when compiling, with its message and position", () => {
    assert.throws(
      () => compilePythonRegex('(?<=a+)b'),
      (e: unknown) => e instanceof PythonRegexError && e.message === 'look-behind requires fixed-width pattern',
    );
    assert.throws(
      () => compilePythonRegex('ab\n\\p'),
      (e: unknown) => e instanceof PythonRegexError && e.msg === 'bad escape \\p' && e.pos === 3 && e.message === 'bad escape \\p at position 3 (line 2, column 1)',
    );
  });

  it('refuses, when compiling, a construct JavaScript cannot match as Python does', () => {
    assert.throws(
      () => compilePythonRegex('(a)(?(1)b|c)'),
      (e: unknown) => e instanceof UnsupportedPythonRegexError && /conditional group/.test(e.message),
    );
    assert.throws(() => compilePythonRegex('(a)\\1', PYTHON_RE_FLAGS.IGNORECASE), UnsupportedPythonRegexError);
  });
});
