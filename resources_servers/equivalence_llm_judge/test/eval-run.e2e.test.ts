/**
 * `gym eval run` on equivalence_llm_judge's example data with telemetry on, the simulated model
 * playing both the policy and the judge: the rollout tree shows the judge call under `gym.verify`,
 * and `gym trace why` counts its time as `judge`, apart from the policy's `model` time.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runGym } from '../../../packages/runtime/test/support/gym-process.js';
import { evalRunTree } from '../../test-support/eval-run-tree.js';

describe('gym eval run --resources-server equivalence_llm_judge --model-type simulated_model', () => {
  it('judges every example row, with the judge call under gym.verify and its time as its own category', async () => {
    let why: { categories: Record<string, number> } | undefined;
    const { rows, tree } = await evalRunTree('equivalence_llm_judge', undefined, async (logDir) => {
      const answer = await runGym(['trace', 'why', '0-0', logDir, '--json']);
      assert.equal(answer.code, 0, answer.stderr);
      why = JSON.parse(answer.stdout) as { categories: Record<string, number> };
    });
    assert.equal(rows.length, 5);
    for (const row of rows) {
      // the simulator judges nothing equivalent, with the original's label
      assert.equal(row['reward'], 0);
      assert.deepEqual(
        (row['judge_evaluations'] as Array<{ verdict_label: string }>).map((e) => e.verdict_label),
        ['[[A!=B]]'],
      );
    }
    const verify = tree.findIndex((line) => line.trim() === 'gym.verify [equivalence_llm_judge]');
    assert.ok(verify >= 0, tree.join('\n'));
    const depth = (line: string) => line.length - line.trimStart().length;
    const under = tree.slice(verify + 1).filter((line, i, rest) => rest.slice(0, i + 1).every((l) => depth(l) > depth(tree[verify]!)));
    assert.deepEqual(
      under.map((line) => line.trim()),
      ['HTTP POST [equivalence_llm_judge]', 'POST /v1/responses [policy_model]', 'gym.model.responses [policy_model]'],
      tree.join('\n'),
    );
    assert.ok(why !== undefined && why.categories['judge']! > 0, JSON.stringify(why));
    assert.ok(why.categories['model']! > 0, JSON.stringify(why));
  });
});
