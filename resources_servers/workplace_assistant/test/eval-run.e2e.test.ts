/** `gym eval run` on workplace_assistant's example data with telemetry on: the rollout tree shows its session, tool call and replay. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evalRunTree } from '../../test-support/eval-run-tree.js';

describe('gym eval run --resources-server workplace_assistant --model-type simulated_model', () => {
  it('grades every example row, and the rollout tree shows the seeded session, the tool call and the replay', async () => {
    const { rows, tree } = await evalRunTree('workplace_assistant');
    assert.equal(rows.length, 5);
    // the simulator looks a name up and answers in text: it changes nothing, every task wants a change
    for (const row of rows) assert.equal(row['reward'], 0);
    const lines = tree.map((line) => line.trim());
    for (const expected of ['POST /seed_session', 'POST /company_directory_find_email_address', 'workplace_assistant.replay']) {
      assert.ok(lines.includes(`${expected} [workplace_assistant]`), tree.join('\n'));
    }
  });
});
