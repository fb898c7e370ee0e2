/**
 * `gym eval run` on code_gen's example data with telemetry on. The simulator answers with a program
 * that prints its input back: it runs, and fails every problem, each row saying why; a scripted
 * OpenAI-compatible model that answers with a right program passes. Either way the rollout tree
 * shows the sandbox run as `code_gen.execute` under `gym.verify`.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assistantMessage, scriptedModelServer } from '@gym/server/testing';
import type { ScriptedModelServer } from '@gym/server/testing';
import { evalRunTree } from '../../test-support/eval-run-tree.js';

describe('gym eval run --resources-server code_gen', () => {
  let model: ScriptedModelServer | undefined;
  after(async () => model?.close());

  it('with the simulated model: its program runs for every row and fails, each row saying why', async () => {
    const { rows, tree } = await evalRunTree('code_gen');
    assert.equal(rows.length, 5);
    for (const row of rows) {
      assert.equal(row['reward'], 0);
      assert.equal(row['extracted_model_code'], 'import sys\n\nprint(sys.stdin.read().strip())');
      // wrong answers for the stdin problems; the call-based one finds no maxProfit to call
      assert.ok(typeof (row['metadata'] as { error_message?: unknown } | null)?.error_message === 'string', JSON.stringify(row['metadata']));
    }
    const verify = tree.findIndex((line) => line.trim() === 'gym.verify [code_gen]');
    assert.ok(verify >= 0 && tree[verify + 1]?.trim() === 'code_gen.execute [code_gen]', tree.join('\n'));
  });

  it('with a model that answers with code: the tree shows the code execution under gym.verify', async () => {
    // The first problem's right answer, sent for every problem: one reward of 1.0, the rest wrong or crashing.
    model = await scriptedModelServer([], { output: [assistantMessage('```python\nn = int(input())\nprint(sum(map(int, input().split())))\n```')] });
    const { rows, tree } = await evalRunTree('code_gen', ['--model-type', 'openai_model', '--model-url', `${model.url}/v1`, '--model-api-key', 'test-key', '-m', 'scripted', '--limit', '2']);
    const rewards = rows.sort((a, b) => Number(a['_ng_task_index']) - Number(b['_ng_task_index'])).map((row) => row['reward']);
    assert.deepEqual(rewards, [1, 0]);
    const verify = tree.findIndex((line) => line.trim() === 'gym.verify [code_gen]');
    assert.ok(verify >= 0 && tree[verify + 1]?.trim() === 'code_gen.execute [code_gen]', tree.join('\n'));
  });
});
