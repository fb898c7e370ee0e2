import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeAggregateMetrics, mergeServerMetrics, stripForAggregation } from '../../src/reward-stats/aggregate-metrics.js';
import { binomial, passAtK, passAtKMetrics } from '../../src/reward-stats/pass-at-k.js';

const row = (task: number, rollout: number, reward: number, extra: Record<string, unknown> = {}) => ({
  _ng_task_index: task,
  _ng_rollout_index: rollout,
  agent_ref: { name: 'ag' },
  reward,
  response: { output: ['big'], usage: { input_tokens: 10 * (rollout + 1), output_tokens: 5 } },
  responses_create_params: { input: 'q' },
  ...extra,
});

// task 0: rewards 1, 0 ; task 1: rewards 1, 1 ; `solved` is a boolean column
const fixture = [row(0, 0, 1, { solved: true }), row(0, 1, 0, { solved: false }), row(1, 0, 1, { solved: true }), row(1, 1, 1, { solved: true })];

describe('pass@k', () => {
  it('computes binomials and the unbiased estimator', () => {
    assert.equal(binomial(5, 2), 10);
    assert.equal(binomial(4, 0), 1);
    assert.equal(passAtK(5, 2, 2), 1 - 3 / 10);
    assert.equal(passAtK(4, 3, 2), 1);
  });

  it('uses the estimator for binary scores and max-of-k for continuous ones', () => {
    assert.deepEqual(
      passAtKMetrics(
        [
          [1, 0],
          [1, 1],
        ],
        'accuracy',
      ),
      {
        'pass@1/accuracy': 75,
        'pass@1[avg-of-1]/accuracy': 100,
        'pass@2/accuracy': 100,
        'pass@1[avg-of-2]/accuracy': 75,
        'pass@1[avg-of-2]/accuracy/std_dev_across_runs': Math.SQRT1_2 * 50,
        'pass@1[avg-of-2]/accuracy/std_err_across_runs': 25,
      },
    );
    const continuous = passAtKMetrics([[0.2, 0.6]], 's');
    assert.equal(continuous['pass@1/s'], 20);
    assert.equal(continuous['pass@2/s'], 60);
  });
});

describe('computeAggregateMetrics', () => {
  const [agent] = computeAggregateMetrics(fixture);

  it('matches hand-computed agent statistics, booleans as 0/1 and usage fields by name', () => {
    const m = agent!.agent_metrics;
    assert.equal(m['mean/reward'], 0.75);
    assert.equal(m['median/reward'], 1);
    assert.equal(m['min/reward'], 0);
    assert.equal(m['std/reward'], 0.5);
    assert.equal(m['mean/solved'], 0.75);
    assert.equal(m['mean/input_tokens'], 15);
    assert.equal(m['max/input_tokens'], 20);
    assert.equal(m['std/output_tokens'], 0);
    assert.equal(m['pass@1/accuracy'], 75);
    assert.equal(m['pass@2/accuracy'], 100);
    assert.equal('mean/_ng_task_index' in m, false);
    assert.deepEqual(Object.keys(agent!.key_metrics).sort(), ['mean/input_tokens', 'mean/output_tokens', 'mean/reward', 'mean/solved']);
  });

  it('computes one group per task with counts and rollout infos', () => {
    const [g0, g1] = agent!.group_level_metrics;
    assert.equal(g0!['_ng_task_index'], 0);
    assert.equal(g0!['mean/reward'], 0.5);
    assert.equal(g0!['std/reward'], Math.SQRT1_2);
    assert.equal(g1!['mean/reward'], 1);
    assert.equal(g1!['std/reward'], 0);
    assert.equal(g0!['num_rollouts'], 2);
    assert.deepEqual(
      (g0!['rollout_infos'] as { rollout_id: string }[]).map((r) => r.rollout_id),
      ['0:0', '0:1'],
    );
  });

  it('counts expected and missing rollouts from the materialized inputs', () => {
    const inputs = [0, 1, 2].map((r) => ({ _ng_task_index: 0, _ng_rollout_index: r, agent_ref: { name: 'ag' }, responses_create_params: { input: 'q' } }));
    const [a] = computeAggregateMetrics([row(0, 0, 1)], { inputs });
    const g = a!.group_level_metrics[0]!;
    assert.equal(g['expected_num_rollouts'], 3);
    assert.equal(g['missing_num_rollouts'], 2);
    assert.equal(g['reward_profile_completion_pct'], 100 / 3);
    assert.deepEqual(g['sample'], { agent_ref: { name: 'ag' }, responses_create_params: { input: 'q' } });
  });

  it('strips heavy fields but keeps response.usage', () => {
    const stripped = stripForAggregation(fixture[0]!);
    assert.deepEqual(stripped['response'], { usage: { input_tokens: 10, output_tokens: 5 } });
    assert.equal('responses_create_params' in stripped, false);
  });

  it("merges a server's answer over the local metrics and keeps local ones when it is empty", () => {
    const merged = mergeServerMetrics(agent!, { agent_metrics: { 'custom/x': 1 }, key_metrics: { 'custom/x': 1 }, group_level_metrics: [{ _ng_task_index: 1, extra: 2 }] });
    assert.equal(merged.agent_metrics['custom/x'], 1);
    assert.equal(merged.agent_metrics['mean/reward'], 0.75);
    assert.deepEqual(merged.key_metrics, { 'custom/x': 1 });
    assert.equal(merged.group_level_metrics[1]!['extra'], 2);
    assert.deepEqual(mergeServerMetrics(agent!, { agent_metrics: {}, key_metrics: {}, group_level_metrics: [] }), agent);
  });
});
