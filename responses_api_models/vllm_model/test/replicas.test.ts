import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ReplicaSet, replicaIndex } from '../replicas.js';

describe('replicas', () => {
  it('computes sha256(session)[:8] big-endian mod N, as the original', () => {
    const session = '0b6e1a55-9f3c-4c1e-8d2a-3f4b5c6d7e8f';
    const expected = BigInt(`0x${createHash('sha256').update(session).digest('hex').slice(0, 16)}`) % 3n;
    assert.equal(replicaIndex(session, 3), Number(expected));
  });

  it('gives the same replica for the same session and spreads sessions over replicas', () => {
    const set = new ReplicaSet(['a', 'b', 'c', 'd']);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const session = `session-${i}`;
      assert.equal(set.pick(session), set.pick(session));
      seen.add(set.pick(session));
    }
    assert.equal(seen.size, 4);
  });

  it('always picks the only replica of a set of one', () => {
    assert.equal(new ReplicaSet(['only']).pick('anything'), 'only');
    assert.throws(() => new ReplicaSet([]), RangeError);
  });
});
