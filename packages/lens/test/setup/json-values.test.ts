// The console record's own JSON of attributes, names and numbers: the same text as
// `JSON.stringify` for every value a span can carry, the fast paths and the fallbacks alike.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attributesJson, jsonNumber, jsonString } from '../../src/setup/exporters/json-values.js';

/** A small deterministic generator (xorshift), so a failure names a value that can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('jsonNumber', () => {
  it('writes what JSON.stringify writes for times rounded to the microsecond, and for any other number', () => {
    const next = random(7);
    const values: number[] = [0, -0, 1, -1, 0.001, -0.001, 0.1, 0.01, 0.999, 1.5, 2.05, 10.1, 123.456, 999999999.999, 1e11 + 0.5, 1e12 - 0.001, 1e12 + 0.5, 1e15, 1e21, 1e-7];
    values.push(0.1 + 0.2, 1 / 3, Math.PI, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, Number.MAX_VALUE, NaN, Infinity, -Infinity);
    for (let i = 0; i < 200_000; i++) {
      const scale = 10 ** Math.floor(next() * 13);
      const ms = Math.round(next() * scale * 1000) / 1000;
      values.push(next() < 0.1 ? -ms : ms, ms + (next() - 0.5) * 1e-4, (ms * 1000 + 0.5) / 1000);
    }
    for (const value of values) assert.equal(jsonNumber(value), JSON.stringify(value), `for ${value}`);
  });
});

describe('jsonString', () => {
  it('quotes plain text as it is and escapes the rest as JSON.stringify does', () => {
    for (const value of [
      '',
      'POST /run',
      'r-81a8b55a15d6',
      'say "hi"',
      'back\\slash',
      'tab\there',
      'line\nbreak',
      '\u0000\u001f\u007f',
      'héllo ✓ 🚀',
      '\ud800 lone',
      "~ !#$%&'()*+,-./:;<=>?@[]^_`{|}",
    ]) {
      assert.equal(jsonString(value), JSON.stringify(value));
    }
  });
});

describe('attributesJson', () => {
  it('writes what JSON.stringify writes, keys in the same order', () => {
    const shapes: Array<Record<string, unknown>> = [
      {},
      {
        'http.request.method': 'POST',
        'url.full': 'http://127.0.0.1:18108/verify',
        'server.port': 18108,
        'gym.http.phase.queued_ms': 0.012,
        'gym.http.connection.reused': true,
        'gym.http.phase.done_at_ms': 3.5,
      },
      { 'a"quote': 'x', 'new\nline': 'y\u0001', '2': 'integer-like key first', z: [1, 2, 3], w: ['a', null], u: undefined, f: false, n: NaN },
      { only: undefined },
      Object.assign(Object.create({ inherited: 'no' }) as object, { own: 1 }),
      Object.assign(Object.create(null) as object, { bare: 'yes' }),
    ];
    for (const attributes of shapes) assert.equal(attributesJson(attributes as never), JSON.stringify(attributes));
  });
});
