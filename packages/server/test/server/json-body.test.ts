import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GymHttpRequestError } from '../../src/http/errors.js';
import { parseJsonBody } from '../../src/server/json-body.js';

/** The 400's detail of `text`, or undefined when it parses. */
function refusal(text: string, maxDepth: number): unknown {
  try {
    parseJsonBody(text, maxDepth);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof GymHttpRequestError);
    return error.detail;
  }
}

describe('parseJsonBody', () => {
  it('refuses one level too deep at the shortest text that can be, and takes one level less', () => {
    // three levels in six characters: as short as too deep for 2 can be
    assert.deepEqual(refusal('[[[]]]', 2), [{ loc: ['body', 0, 0], msg: 'JSON is nested deeper than 2 levels', type: 'json_too_deep' }]);
    assert.equal(refusal('[[]]', 2), undefined);
    assert.equal(refusal('[[1]] ', 2), undefined);
  });

  it('finds a __proto__ key in a short text, written out or spelled with escapes', () => {
    const forbidden = [{ loc: ['body', '__proto__'], msg: 'Key "__proto__" is not allowed: it could change the prototype of an object', type: 'forbidden_key' }];
    assert.deepEqual(refusal('{"__proto__":1}', 512), forbidden);
    assert.deepEqual(refusal('{"\\u005f_proto__":1}', 512), forbidden);
    assert.deepEqual(refusal('{"__pr\\u006fto__":{}}', 512), forbidden);
    assert.equal(refusal('{"a":"__proto__ as a value","b":"\\u0041"}', 512), undefined);
  });
});
