// What leaves the environment for a third-party model API: the trace context (configurable), never
// the caller's baggage, and the rollout id only when configured.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGymEnv, REPO_ROOT } from '../../../packages/runtime/test/support/gym-process.js';
import type { GymEnv } from '../../../packages/runtime/test/support/gym-process.js';
import { telemetryEnv } from '../../../packages/runtime/test/support/rollout-tree.js';
import { startFakeVllm } from '../../vllm_model/test/fake-vllm.js';
import type { FakeVllm } from '../../vllm_model/test/fake-vllm.js';

const AGENT = 'example_single_tool_call_simple_agent';
const ROW = JSON.parse(readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!) as Record<string, unknown>;
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_HEADERS = {
  'content-type': 'application/json',
  traceparent: `00-${CALLER_TRACE}-b7ad6b7169203331-01`,
  baggage: 'user.email=alice%40example.com,nemo.gym.rollout.id=caller-rollout-7',
};

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function start(overrides: string[]): Promise<{ env: GymEnv; upstream: FakeVllm }> {
  const upstream = await startFakeVllm({ model: 'gpt-test' });
  cleanups.push(() => upstream.close());
  const env = await startGymEnv(
    [
      '--resources-server',
      'example_single_tool_call',
      '--model-type',
      'openai_model',
      '--model-url',
      upstream.baseUrl,
      '-m',
      'gpt-test',
      '++telemetry.enabled=true',
      '++telemetry.exporter=console',
      '++telemetry.span_groups=all',
      ...overrides,
    ],
    { env: telemetryEnv({ GYM_MODEL_API_KEY: 'sk-egress-test-key' }) },
  );
  cleanups.push(() => env.dispose());
  return { env, upstream };
}

describe('egress to a third-party model API', () => {
  it("sends traceparent but neither the caller's baggage nor the rollout id, by default", async () => {
    const { env, upstream } = await start([]);
    const direct = await fetch(`${env.url('policy_model')}/v1/responses`, { method: 'POST', headers: CALLER_HEADERS, body: JSON.stringify({ input: 'hi' }) });
    assert.equal(direct.status, 200);
    const run = await fetch(`${env.url(AGENT)}/run`, { method: 'POST', headers: CALLER_HEADERS, body: JSON.stringify({ ...ROW, _ng_task_index: 3, _ng_rollout_index: 1 }) });
    assert.equal(run.status, 200);
    const calls = upstream.requests.filter((r) => r.path === '/v1/responses');
    assert.ok(calls.length >= 2);
    for (const call of calls) {
      assert.match(String(call.headers['traceparent']), new RegExp(`^00-${CALLER_TRACE}-[0-9a-f]{16}-01$`));
      assert.equal(call.headers['baggage'], undefined);
      const sent = JSON.stringify({ headers: call.headers, path: call.path, body: call.body });
      for (const leak of ['alice', 'caller-rollout-7', '3-1', 'nemo.gym']) assert.ok(!sent.includes(leak), `${leak} in ${sent}`);
    }
  });

  it('withholds traceparent and forwards the rollout id when the model block says so', async () => {
    const block = 'policy_model.responses_api_models.openai_model';
    const { env, upstream } = await start([`++${block}.propagate_traceparent=false`, `++${block}.propagate_baggage=true`]);
    const run = await fetch(`${env.url(AGENT)}/run`, { method: 'POST', headers: CALLER_HEADERS, body: JSON.stringify({ ...ROW, _ng_task_index: 3, _ng_rollout_index: 1 }) });
    assert.equal(run.status, 200);
    const calls = upstream.requests.filter((r) => r.path === '/v1/responses');
    assert.ok(calls.length >= 1);
    for (const call of calls) {
      assert.equal(call.headers['traceparent'], undefined);
      // gym's own entry (the rollout id the caller gave) only: the caller's other entries never travel on
      assert.equal(call.headers['baggage'], 'nemo.gym.rollout.id=caller-rollout-7');
    }
  });
});
