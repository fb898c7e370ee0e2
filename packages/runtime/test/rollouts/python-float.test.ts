// Floats written as the original writes them: Python's repr of a float, checked against python3
// itself over whole numbers, fractions and the exponent boundaries.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { pythonFloatText, stringifyWithFloats } from '../../src/rollouts/python-float.js';

const NUMBERS = [1, 0, 0.98, 0.5, 1e-5, 1.5e-7, 0.0001, 123.456, 1e15, 1e16, 1.2345e16, 9999999999999998, 1e21, 0.1 + 0.2, -2.5, 1e100, 5e-324, 100, 2 / 3, 1 / 3, -1e-4, 12345678.9];

describe('pythonFloatText', () => {
  it(`writes ${NUMBERS.length} numbers exactly as Python's json.dumps writes the floats`, () => {
    const python = execFileSync('python3', ['-c', 'import json,sys; print(json.dumps([float(x) for x in json.load(sys.stdin)]))'], { input: JSON.stringify(NUMBERS) })
      .toString()
      .trim();
    assert.equal(`[${NUMBERS.map(pythonFloatText).join(', ')}]`, python);
  });

  it('NaN and infinities are null, as orjson writes them', () => {
    assert.deepEqual([NaN, Infinity, -Infinity].map(pythonFloatText), ['null', 'null', 'null']);
  });

  it('stringifyWithFloats: only the named top-level keys, their nested numbers too', () => {
    assert.equal(stringifyWithFloats({ reward: 1, n: 2, nested: { reward: 1 }, m: { a: 0 } }, new Set(['reward', 'm'])), '{"reward":1.0,"n":2,"nested":{"reward":1},"m":{"a":0.0}}');
  });
});
