/** `gym eval run` on example_multi_step's example data with telemetry on: the rollout tree shows its tool calls and grading. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evalRunTree } from '../../test-support/eval-run-tree.js';

describe('gym eval run --resources-server example_multi_step --model-type simulated_model', () => {
  it('grades every example row, and the rollout tree shows the tool call and the grading span', async () => {
    const { rows, tree } = await evalRunTree('example_multi_step');
    assert.equal(rows.length, 5);
    for (const row of rows) {
      // the simulator looks a value up and answers in text: it never submits, so nothing is extracted
      assert.equal(row['reward'], 0);
      assert.deepEqual(row['parsed_synonym_values'], []);
    }
    const server = '[example_multi_step_resources_server]';
    assert.ok(
      tree.some((line) => line.trim() === `POST /get_synonym_value ${server}`),
      tree.join('\n'),
    );
    assert.ok(
      tree.some((line) => line.trim() === `example_multi_step.grade ${server}`),
      tree.join('\n'),
    );
  });
});
