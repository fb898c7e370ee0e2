// The rollout id's carrier between gym processes: one `baggage` entry, read at the ingress.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rolloutBaggage, rolloutIdFromBaggage } from '../../src/telemetry/rollout-context.js';

describe('rolloutIdFromBaggage', () => {
  it('reads the id gym wrote, among other entries and properties', () => {
    assert.equal(rolloutIdFromBaggage(rolloutBaggage('7-0-a1')), '7-0-a1');
    assert.equal(rolloutIdFromBaggage('other=1, nemo.gym.rollout.id=r-81a8b55a15d6;prop=x,last=2'), 'r-81a8b55a15d6');
    assert.equal(rolloutIdFromBaggage(['other=1', 'nemo.gym.rollout.id= 7-0 ']), '7-0');
  });

  it('decodes an id another writer percent-encoded, and refuses what is not an id', () => {
    assert.equal(rolloutIdFromBaggage('nemo.gym.rollout.id=r%2D1'), 'r-1');
    for (const header of [undefined, '', 'a=b', 'xnemo.gym.rollout.id=abc', 'nemo.gym.rollout.id=%zz', 'nemo.gym.rollout.id=%20abc', 'nemo.gym.rollout.id=a b', 'nemo.gym.rollout.id=']) {
      assert.equal(rolloutIdFromBaggage(header), undefined, String(header));
    }
  });
});
