import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, isConnectionError, retryAfterMs } from '../../src/http/index.js';

describe('retry policy', () => {
  it('doubles the backoff cap per retry and keeps the delay within [cap/2, cap]', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      backoffDelayMs(1, policy, () => 0),
      50,
    );
    assert.equal(
      backoffDelayMs(1, policy, () => 1),
      100,
    );
    assert.equal(
      backoffDelayMs(3, policy, () => 1),
      400,
    );
    assert.equal(
      backoffDelayMs(10, policy, () => 1),
      1000,
    );
    assert.equal(
      backoffDelayMs(10, policy, () => 0),
      500,
    );
  });

  it('reads Retry-After as seconds or a date, capped', () => {
    assert.equal(retryAfterMs('2', 8000), 2000);
    assert.equal(retryAfterMs('120', 8000), 8000);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 8000, 9_000), 1000);
    assert.equal(retryAfterMs('soon', 8000), undefined);
    assert.equal(retryAfterMs(undefined, 8000), undefined);
  });

  it('classifies transport failures, including happy-eyeballs aggregates', () => {
    assert.equal(isConnectionError(Object.assign(new Error('x'), { code: 'ECONNRESET' })), true);
    assert.equal(isConnectionError(Object.assign(new Error('x'), { code: 'UND_ERR_SOCKET' })), true);
    const refused = Object.assign(new Error('x'), { code: 'ECONNREFUSED' });
    assert.equal(isConnectionError(new AggregateError([refused, refused])), true);
    assert.equal(isConnectionError(Object.assign(new Error('x'), { code: 'ENOTFOUND' })), false);
    assert.equal(isConnectionError(new Error('x')), false);
    assert.equal(isConnectionError('ECONNRESET'), false);
  });
});
