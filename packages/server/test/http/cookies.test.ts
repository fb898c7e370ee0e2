import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatCookieHeader, parseCookieHeader, parseSetCookie } from '../../src/http/index.js';

describe('cookies', () => {
  it('parses a Cookie header, ignoring malformed parts', () => {
    assert.deepEqual(parseCookieHeader('a=1; b="two"; junk; =x; c=3=4'), { a: '1', b: 'two', c: '3=4' });
    assert.deepEqual(parseCookieHeader(undefined), {});
  });

  it('formats a Cookie header and skips an empty map', () => {
    assert.equal(formatCookieHeader({ a: '1', b: '2' }), 'a=1; b=2');
    assert.equal(formatCookieHeader({}), undefined);
    assert.equal(formatCookieHeader(undefined), undefined);
  });

  it('reads names and values of Set-Cookie values without attributes', () => {
    assert.deepEqual(parseSetCookie(['s=v.sig; Path=/; HttpOnly', 't=1']), { s: 'v.sig', t: '1' });
    assert.deepEqual(parseSetCookie('only=one; Max-Age=10'), { only: 'one' });
    assert.deepEqual(parseSetCookie(undefined), {});
  });
});
