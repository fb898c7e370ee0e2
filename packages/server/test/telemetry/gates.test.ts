// gym's gates are plain objects bound to lens's span-group state: they follow every change of the
// enabled set while bound, and fall back to false when unbound (as with telemetry off).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bindSpanGroupGate, setEnabledSpanGroups } from '@gym/lens';
import { bindGates, GATES, GYM_SPAN_GROUPS } from '../../src/telemetry/gates.js';

const enabledGates = (): string[] => GYM_SPAN_GROUPS.filter((g) => GATES[g].enabled);

describe('gym span-group gates', () => {
  it('are all false until bound, follow lens while bound, and are false again once unbound', () => {
    setEnabledSpanGroups(['rollout', 'verify']);
    assert.deepEqual(enabledGates(), []);
    const unbind = bindGates(bindSpanGroupGate);
    try {
      assert.deepEqual(enabledGates(), ['rollout', 'verify']);
      setEnabledSpanGroups(['http_client']);
      assert.deepEqual(enabledGates(), ['http_client']);
    } finally {
      unbind();
    }
    assert.deepEqual(enabledGates(), []);
    setEnabledSpanGroups(['server']);
    assert.deepEqual(enabledGates(), []);
    setEnabledSpanGroups([]);
  });
});
