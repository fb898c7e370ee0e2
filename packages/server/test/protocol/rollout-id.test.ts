import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rolloutIdOfRow } from '../../src/protocol/rollout-id.js';

describe('rolloutIdOfRow', () => {
  it("takes the row's own id, else <task>-<rollout>, with -a<n> on a retry", () => {
    assert.equal(rolloutIdOfRow({ _ng_rollout_id: 'mine-1', _ng_task_index: 3, _ng_rollout_index: 0 }), 'mine-1');
    assert.equal(rolloutIdOfRow({ _ng_task_index: 3, _ng_rollout_index: 2 }), '3-2');
    assert.equal(rolloutIdOfRow({ _ng_task_index: 3, _ng_rollout_index: 2, _ng_attempt_index: 1 }), '3-2-a1');
  });

  it('gives a row without indices a random r-<12 hex> id, distinct across refills of its random pool', () => {
    const ids = Array.from({ length: 3000 }, () => rolloutIdOfRow({}));
    for (const id of ids) assert.match(id, /^r-[0-9a-f]{12}$/);
    assert.equal(new Set(ids).size, ids.length);
  });
});
