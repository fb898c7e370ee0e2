/**
 * `POST /aggregate_metrics` of resources servers and agents over real HTTP: the original's default
 * computation (reward profile per task and overall, `mean/*` headline), the servers' own metrics,
 * and bad bodies.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpClient, GymHttpStatusError } from '../../src/http/index.js';
import { defineAgentServer, defineResourcesServer, listen } from '../../src/server/index.js';
import type { FastifyInstance } from 'fastify';

type Metrics = { group_level_metrics: Record<string, unknown>[]; agent_metrics: Record<string, unknown>; key_metrics: Record<string, unknown> };

// Two tasks, two rollouts each, sent out of order; usage sits under `response` as the collector sends it.
const VERIFY_RESPONSES = [
  { _ng_task_index: 1, _ng_rollout_index: 1, reward: 0, correct: false, response: { usage: { input_tokens: 10, output_tokens: 4 } }, agent_ref: { name: 'a' } },
  { _ng_task_index: 0, _ng_rollout_index: 0, reward: 1, correct: true, response: { usage: { input_tokens: 10, output_tokens: 2 } }, agent_ref: { name: 'a' } },
  { _ng_task_index: 0, _ng_rollout_index: 1, reward: 1, correct: true, response: { usage: { input_tokens: 10, output_tokens: 6 } }, agent_ref: { name: 'a' } },
  { _ng_task_index: 1, _ng_rollout_index: 0, reward: 0.5, correct: false, response: { usage: { input_tokens: 10, output_tokens: 8 } }, agent_ref: { name: 'a' } },
];

describe('/aggregate_metrics over real HTTP', () => {
  const http = createHttpClient({ retry: { maxAttempts: 1 } });
  const apps: FastifyInstance[] = [];
  const urls: Record<string, string> = {};
  before(async () => {
    const servers = {
      plain: defineResourcesServer({ name: 'plain', tools: {}, verify: { handler: () => ({ reward: 1 }) } }),
      custom: defineResourcesServer({
        name: 'custom',
        tools: {},
        verify: { handler: () => ({ reward: 1 }) },
        computeMetrics: (tasks) => ({
          solved_tasks: tasks.filter((rollouts) => rollouts.every((r) => r['reward'] === 1)).length,
          per_task_metrics: tasks.map((rollouts) => ({ _ng_task_index: rollouts[0]!['_ng_task_index'], first_reward: rollouts[0]!['reward'] })),
        }),
        getKeyMetrics: (m) => ({ solved_tasks: m['solved_tasks'] }),
      }),
      agent: defineAgentServer({ name: 'agent', run: { handler: () => ({}) }, responses: { handler: () => ({}) } }),
    };
    for (const [key, server] of Object.entries(servers)) {
      const app = server.build();
      apps.push(app);
      urls[key] = (await listen(app)).url;
    }
  });
  after(async () => {
    await http.close();
    await Promise.all(apps.map((a) => a.close()));
  });

  it('profiles the rewards and every numeric field per task and overall, as the original', async () => {
    const { body } = await http.post<Metrics>(`${urls['plain']}/aggregate_metrics`, { verify_responses: VERIFY_RESPONSES });
    const m = body.agent_metrics;
    assert.equal(m['mean/reward'], 0.625);
    assert.equal(m['max/reward'], 1);
    assert.equal(m['min/reward'], 0);
    assert.equal(m['median/reward'], 0.75);
    assert.ok(Math.abs((m['std/reward'] as number) - Math.sqrt((0.375 ** 2 * 2 + 0.625 ** 2 + 0.125 ** 2) / 3)) < 1e-12);
    assert.equal(m['mean/correct'], 0.5, 'booleans count as 0/1');
    assert.equal(m['mean/output_tokens'], 5, 'usage fields are columns of their own');
    assert.equal(m['std/input_tokens'], 0);
    assert.ok(!Object.keys(m).some((k) => k.includes('_ng_task_index') || k.includes('_ng_rollout_index')), 'indices are not metrics');
    assert.deepEqual(body.key_metrics, Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith('mean/'))));

    assert.deepEqual(
      body.group_level_metrics.map((g) => g['_ng_task_index']),
      [0, 1],
    );
    const [task0, task1] = body.group_level_metrics;
    assert.equal(task0!['mean/reward'], 1);
    assert.equal(task0!['std/reward'], 0);
    assert.equal(task1!['mean/reward'], 0.25);
    assert.deepEqual([task1!['num_rollouts'], task1!['expected_num_rollouts'], task1!['missing_num_rollouts'], task1!['reward_profile_completion_pct']], [2, 2, 0, 100]);
    assert.deepEqual(task1!['sample'], { agent_ref: { name: 'agent' } }, "the original's stand-in input row");
    assert.deepEqual(task1!['rollout_infos'], [
      { rollout_id: '1:0', _ng_task_index: 1, _ng_rollout_index: 0, reward: 0.5, correct: 0, input_tokens: 10, output_tokens: 8 },
      { rollout_id: '1:1', _ng_task_index: 1, _ng_rollout_index: 1, reward: 0, correct: 0, input_tokens: 10, output_tokens: 4 },
    ]);
  });

  it('an agent without its own /aggregate_metrics computes the same', async () => {
    const [fromAgent, fromResources] = await Promise.all(
      ['agent', 'plain'].map(async (key) => (await http.post<Metrics>(`${urls[key]}/aggregate_metrics`, { verify_responses: VERIFY_RESPONSES })).body),
    );
    assert.deepEqual(fromAgent, fromResources);
  });

  it("merges a server's own metrics: overall into agent_metrics, per task into its group; its headline wins", async () => {
    const { body } = await http.post<Metrics>(`${urls['custom']}/aggregate_metrics`, { verify_responses: VERIFY_RESPONSES });
    assert.equal(body.agent_metrics['solved_tasks'], 1);
    assert.equal(body.agent_metrics['mean/reward'], 0.625);
    assert.equal(body.agent_metrics['per_task_metrics'], undefined);
    assert.deepEqual(body.key_metrics, { solved_tasks: 1 });
    // tasks reach computeMetrics ascending, each task's rollouts in the order sent
    assert.deepEqual(
      body.group_level_metrics.map((g) => g['first_reward']),
      [1, 0],
    );
  });

  it('answers empty metrics for no verify responses', async () => {
    const { body } = await http.post(`${urls['plain']}/aggregate_metrics`, { verify_responses: [] });
    assert.deepEqual(body, { group_level_metrics: [], agent_metrics: {}, key_metrics: {} });
  });

  it('refuses the same rollout twice, and a body without verify_responses, with a 422 naming the field', async () => {
    const twice = [VERIFY_RESPONSES[0], VERIFY_RESPONSES[1], VERIFY_RESPONSES[0]];
    await assert.rejects(http.post(`${urls['plain']}/aggregate_metrics`, { verify_responses: twice }), (err: unknown) => {
      assert.ok(err instanceof GymHttpStatusError);
      assert.equal(err.status, 422);
      const detail = (err.body as { detail: { loc: unknown[]; msg: string }[] }).detail[0]!;
      assert.deepEqual(detail.loc, ['body', 'verify_responses', 2]);
      assert.match(detail.msg, /rollout 1:1 .* already at index 0/);
      return true;
    });
    await assert.rejects(http.post(`${urls['agent']}/aggregate_metrics`, { rows: [] }), (err: unknown) => err instanceof GymHttpStatusError && err.status === 422);
  });
});
