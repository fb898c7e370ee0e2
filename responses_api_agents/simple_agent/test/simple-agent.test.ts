// The simple_agent loop over real HTTP: a scripted model, the example resources server, the agent.
import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createHttpClient, createServerContext, defineResourcesServer, listen } from '@gym/server';
import type { HttpClient } from '@gym/server';
import { assistantMessage, functionCall, scriptedModelServer } from '@gym/server/testing';
import type { ScriptedModelServer, ScriptedTurn } from '@gym/server/testing';
import createExampleSingleToolCall from '../../../resources_servers/example_single_tool_call/app.js';
import createSimpleAgent from '../app.js';

const ROW = { responses_create_params: { input: 'weather in sf?', tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] } };
const WEATHER = functionCall('get_weather', { city: 'sf' });
const ANSWER = assistantMessage('It is cold.');

interface Harness {
  agent: FastifyInstance;
  model: ScriptedModelServer;
  toolCalls: () => number;
  close(): Promise<void>;
}

async function harness(script: ScriptedTurn[], agentFields: Record<string, unknown> = {}): Promise<Harness> {
  const http: HttpClient = createHttpClient({ retry: { maxAttempts: 1 } });
  const model = await scriptedModelServer(script);
  const tree = (resourcesPort: number) => ({
    weather: { resources_servers: { example_single_tool_call: { entrypoint: 'app.ts', domain: 'agent', host: '127.0.0.1', port: resourcesPort } } },
    policy_model: { responses_api_models: { scripted: { entrypoint: 'app.ts', host: '127.0.0.1', port: Number(new URL(model.url).port) } } },
    agent: {
      responses_api_agents: {
        simple_agent: {
          entrypoint: 'app.ts',
          host: '127.0.0.1',
          port: 1,
          resources_server: { type: 'resources_servers', name: 'weather' },
          model_server: { type: 'responses_api_models', name: 'policy_model' },
          ...agentFields,
        },
      },
    },
  });
  const resources = (await createExampleSingleToolCall(createServerContext(tree(1), 'weather', http))).build();
  let tools = 0;
  resources.addHook('onRequest', async (request) => void (request.url === '/get_weather' && tools++));
  const { port } = await listen(resources);
  const agent = (await createSimpleAgent(createServerContext(tree(port), 'agent', http))).build();
  return {
    agent,
    model,
    toolCalls: () => tools,
    close: async () => {
      await agent.close();
      await resources.close();
      await model.close();
      await http.close();
    },
  };
}

describe('simple_agent', () => {
  let h: Harness | undefined;
  afterEach(async () => h?.close());
  after(async () => h?.close());

  it('runs seed → model → tool → model → verify and returns the verify response', async () => {
    h = await harness([{ output: [WEATHER] }, { output: [ANSWER] }]);
    const res = await h.agent.inject({ method: 'POST', url: '/run', payload: ROW });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.reward, 1);
    assert.deepEqual(
      body.response.output.map((i: { type: string }) => i.type),
      ['function_call', 'function_call_output', 'message'],
    );
    assert.equal(body.response.output[1].output, '{"city":"sf","weather_description":"The weather in sf is cold."}');
    assert.deepEqual(body.response.usage, { input_tokens: 20, output_tokens: 4, total_tokens: 24 });
    // the second model call sees the whole trajectory so far
    assert.deepEqual(
      (h.model.requests[1]!['input'] as Array<{ type?: string }>).map((i) => i.type ?? 'message'),
      ['message', 'function_call', 'function_call_output'],
    );
  });

  it('feeds invalid tool arguments back as an error without calling the tool', async () => {
    h = await harness([{ output: [functionCall('get_weather', '{not json')] }, { output: [ANSWER] }]);
    const body = (await h.agent.inject({ method: 'POST', url: '/run', payload: ROW })).json();
    assert.equal(body.response.output[1].output, '{"error":"Invalid tool call arguments: \\"{not json\\""}');
    assert.equal(h.toolCalls(), 0);
  });

  it('feeds a tool HTTP error back to the model as text instead of failing the rollout', async () => {
    h = await harness([{ output: [functionCall('get_weather', { city: 5 })] }, { output: [ANSWER] }]);
    const body = (await h.agent.inject({ method: 'POST', url: '/run', payload: ROW })).json();
    assert.equal(body.reward, 1);
    assert.match(body.response.output[1].output, /"loc":\["body","city"\]/);
  });

  it('stops after max_steps when the model never stops calling tools', async () => {
    h = await harness([{ output: [WEATHER] }], { max_steps: 3 });
    const body = (await h.agent.inject({ method: 'POST', url: '/run', payload: ROW })).json();
    assert.equal(h.model.requests.length, 3);
    assert.equal(h.toolCalls(), 3);
    assert.equal(body.response.output.length, 6);
  });

  it('stops on incomplete_details and keeps going after reasoning-only output', async () => {
    h = await harness([{ output: [{ type: 'reasoning', id: 'r1', summary: [] }] }, { output: [assistantMessage('cut')], incomplete_details: { reason: 'max_output_tokens' } }]);
    const body = (await h.agent.inject({ method: 'POST', url: '/run', payload: ROW })).json();
    assert.equal(h.model.requests.length, 2);
    assert.deepEqual(body.response.incomplete_details, { reason: 'max_output_tokens' });
  });

  it('fails the rollout when the model server fails', async () => {
    h = await harness([{ fail: 500 }]);
    const res = await h.agent.inject({ method: 'POST', url: '/run', payload: ROW });
    assert.equal(res.statusCode, 500);
    assert.equal(typeof res.json(), 'string');
  });

  it('skips verification when configured, with the configured reward', async () => {
    h = await harness([{ output: [ANSWER] }], { skip_verification: true, skip_verification_reward: 0.25 });
    const body = (await h.agent.inject({ method: 'POST', url: '/run', payload: ROW })).json();
    assert.equal(body.reward, 0.25);
    assert.equal(body.verification_skipped, true);
  });

  it('serves the loop as /v1/responses and forwards /aggregate_metrics to its resources server', async () => {
    h = await harness([{ output: [WEATHER] }, { output: [ANSWER] }]);
    const res = await h.agent.inject({ method: 'POST', url: '/v1/responses', payload: ROW.responses_create_params });
    assert.equal(res.json().output.length, 3);
    const verify_responses = [
      { _ng_task_index: 0, reward: 1 },
      { _ng_task_index: 1, reward: 0 },
    ];
    const metrics = await h.agent.inject({ method: 'POST', url: '/aggregate_metrics', payload: { verify_responses } });
    // the resources server's default computation, through the agent
    assert.deepEqual(metrics.json().key_metrics, { 'mean/reward': 0.5 });
    assert.equal(metrics.json().group_level_metrics.length, 2);
  });

  it('answers empty aggregate metrics when it skips verification, as the original', async () => {
    h = await harness([], { skip_verification: true });
    const metrics = await h.agent.inject({ method: 'POST', url: '/aggregate_metrics', payload: { verify_responses: [{ reward: 1 }] } });
    assert.deepEqual(metrics.json(), { group_level_metrics: [], agent_metrics: {}, key_metrics: {} });
  });
});

describe('simple_agent checks what its servers answer (the protocol module)', () => {
  const closers: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
  });

  /** simple_agent over a scripted model and a resources server whose verify answers `verifyAnswer`. */
  async function agentWith(script: ScriptedTurn[], verifyAnswer: Record<string, unknown>): Promise<FastifyInstance> {
    const http = createHttpClient({ retry: { maxAttempts: 1 } });
    const model = await scriptedModelServer(script);
    const resources = defineResourcesServer({ name: 'judge', tools: {}, verify: { handler: () => verifyAnswer as never } }).build();
    // the resources server answers the verify result alone, without the base's merge: a verifier that forgot its reward
    resources.addHook('onSend', async (request, _reply, payload) => (request.url === '/verify' ? JSON.stringify(verifyAnswer) : payload));
    const { port } = await listen(resources);
    const tree = {
      judge: { resources_servers: { judge: { entrypoint: 'app.ts', domain: 'other', host: '127.0.0.1', port } } },
      policy_model: { responses_api_models: { scripted: { entrypoint: 'app.ts', host: '127.0.0.1', port: Number(new URL(model.url).port) } } },
      agent: {
        responses_api_agents: {
          simple_agent: {
            entrypoint: 'app.ts',
            host: '127.0.0.1',
            port: 1,
            resources_server: { type: 'resources_servers', name: 'judge' },
            model_server: { type: 'responses_api_models', name: 'policy_model' },
          },
        },
      },
    };
    const agent = (await createSimpleAgent(createServerContext(tree, 'agent', http))).build();
    closers.push(async () => {
      await agent.close();
      await resources.close();
      await model.close();
      await http.close();
    });
    return agent;
  }

  it('fails the rollout, naming the field, when /verify answers without a reward', async () => {
    const agent = await agentWith([{ output: [ANSWER] }], { responses_create_params: {}, response: { output: [] }, score: 1 });
    const res = await agent.inject({ method: 'POST', url: '/run', payload: ROW });
    assert.equal(res.statusCode, 500);
    assert.match(res.json(), /GymUpstreamError/);
    assert.match(res.json(), /answered \/verify without a valid verify response \(reward: /);
  });

  it('fails the rollout, naming the field, when the model answers an output item without its type', async () => {
    const agent = await agentWith([{ output: [{ role: 'assistant', content: [] }] }], { reward: 1 });
    const res = await agent.inject({ method: 'POST', url: '/run', payload: ROW });
    assert.equal(res.statusCode, 500);
    assert.match(res.json(), /not a Response \(output\.0\.type: /);
  });
});
