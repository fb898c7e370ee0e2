// The spans the original opens where it makes a hop gym does not: `gym.agent.responses` around the
// agent loop of `/run` (the original's /run calls its own /v1/responses), and `gym.model.messages`
// on a model server's `/v1/messages`. Real servers on loopback, real telemetry in-process writing
// console records into memory; then the same calls with the `agent` and `model_call` groups off.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { setSpanGroupSpec } from '@gym/lens';
import type { FastifyInstance } from 'fastify';
import { createHttpClient } from '../../../packages/server/src/http/client.js';
import type { HttpClient } from '@gym/server';
import { createServerContext } from '../../../packages/server/src/server-process/server-context.js';
import { defineModelServer, listen } from '../../../packages/server/src/server/index.js';
import { initTelemetry } from '../../../packages/server/src/telemetry/init.js';
import { processTelemetry } from '../../../packages/server/src/telemetry/process-telemetry.js';
import { serverTelemetrySettings } from '../../../packages/server/src/telemetry/settings.js';
import type { GymTelemetry } from '../../../packages/server/src/telemetry/state.js';
import createExampleSingleToolCall from '../../../resources_servers/example_single_tool_call/app.js';
import createSimpleAgent from '../app.js';

interface Span {
  type: 'span';
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: string;
  attributes: Record<string, unknown>;
}

const ANSWER = { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It is cold.', annotations: [] }] };
const RESPONSE = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  model: 'policy',
  status: 'completed',
  error: null,
  incomplete_details: null,
  output: [ANSWER],
  usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
};
const GROUPS_ON = 'server,http_client,rollout,agent,model_call';
const GROUPS_OFF = 'server,http_client,rollout';

describe('gym.agent.responses and gym.model.messages', () => {
  const lines: string[] = [];
  let telemetry: GymTelemetry | undefined;
  let http: HttpClient | undefined;
  const apps: FastifyInstance[] = [];
  const urls = { agent: '', model: '' };

  before(async () => {
    const env = { NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: GROUPS_ON, OTEL_BSP_SCHEDULE_DELAY: '20' };
    let buffered = '';
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const parts = (buffered + chunk.toString('utf8')).split('\n');
        buffered = parts.pop()!;
        lines.push(...parts);
        done();
      },
    });
    telemetry = await initTelemetry({ settings: serverTelemetrySettings(env), serverName: 'policy_model', serverType: 'responses_api_models', env, output });
    assert.ok(telemetry, 'telemetry set up');
    const seams = processTelemetry(telemetry);
    const instrumentation = seams.server;
    http = createHttpClient({ instrument: seams.client, retry: { maxAttempts: 1 } });
    const model = defineModelServer({ name: 'policy_model', responses: { handler: () => RESPONSE }, chatCompletions: { handler: () => ({ choices: [] }) } }).build({ instrumentation });
    apps.push(model);
    urls.model = (await listen(model)).url;
    const tree = (resourcesPort: number) => ({
      weather: { resources_servers: { example_single_tool_call: { entrypoint: 'app.ts', domain: 'agent', host: '127.0.0.1', port: resourcesPort } } },
      policy_model: { responses_api_models: { scripted: { entrypoint: 'app.ts', host: '127.0.0.1', port: Number(new URL(urls.model).port) } } },
      agent: {
        responses_api_agents: {
          simple_agent: {
            entrypoint: 'app.ts',
            host: '127.0.0.1',
            port: 1,
            resources_server: { type: 'resources_servers', name: 'weather' },
            model_server: { type: 'responses_api_models', name: 'policy_model' },
          },
        },
      },
    });
    const resources = (await createExampleSingleToolCall(createServerContext(tree(1), 'weather', http))).build({ instrumentation });
    apps.push(resources);
    const { port } = await listen(resources);
    const agent = (await createSimpleAgent(createServerContext(tree(port), 'agent', http))).build({ instrumentation });
    apps.push(agent);
    urls.agent = (await listen(agent)).url;
  });
  after(async () => {
    for (const app of apps) await app.close();
    await http?.close();
    await telemetry?.shutdown();
  });

  const post = async (url: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Record<string, unknown>;
  };
  const run = () => post(`${urls.agent}/run`, { responses_create_params: { input: 'weather in sf?' } });
  const messages = () => post(`${urls.model}/v1/messages`, { model: 'policy', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
  const answers: Array<Record<string, unknown>> = [];
  let spans: Span[] = [];

  before(async () => {
    // each call once with the groups on, once with `agent` and `model_call` off; shutting telemetry down writes every span
    answers.push(await run(), await messages());
    setSpanGroupSpec(GROUPS_OFF);
    answers.push(await run(), await messages());
    await telemetry!.shutdown();
    spans = lines.filter((l) => l.startsWith('{"type":"span"')).map((l) => JSON.parse(l) as Span);
  });

  it('opens gym.agent.responses under gym.rollout around the agent loop of /run, with the model calls under it and verify beside it', () => {
    const rollout = spans.find((s) => s.name === 'gym.rollout');
    assert.ok(rollout, 'a gym.rollout span');
    const inTrace = spans.filter((s) => s.trace_id === rollout.trace_id);
    const agentSpans = inTrace.filter((s) => s.name === 'gym.agent.responses');
    assert.equal(agentSpans.length, 1);
    const [agentSpan] = agentSpans as [Span];
    assert.equal(agentSpan.parent_span_id, rollout.span_id);
    assert.equal(agentSpan.kind, 'INTERNAL');
    assert.equal(agentSpan.attributes['nemo.gym.server.name'], 'policy_model');
    assert.equal(agentSpan.attributes['nemo.gym.rollout.id'], rollout.attributes['nemo.gym.rollout.id']);
    const clientCalls = inTrace.filter((s) => s.kind === 'CLIENT');
    const modelCall = clientCalls.find((s) => String(s.attributes['url.full']).endsWith('/v1/responses'));
    const verifyCall = clientCalls.find((s) => String(s.attributes['url.full']).endsWith('/verify'));
    assert.equal(modelCall?.parent_span_id, agentSpan.span_id, 'the model call is inside the loop');
    assert.equal(verifyCall?.parent_span_id, rollout.span_id, 'verify follows the loop, outside it');
  });

  it('opens gym.model.messages (not gym.model.responses) under the SERVER span of /v1/messages, with model and usage', () => {
    assert.equal(answers[1]!['type'], 'message');
    const span = spans.find((s) => s.name === 'gym.model.messages');
    assert.ok(span, 'a gym.model.messages span');
    const server = spans.find((s) => s.span_id === span.parent_span_id);
    assert.equal(server?.name, 'POST /v1/messages');
    assert.deepEqual(
      spans.filter((s) => s.trace_id === span.trace_id && s.name.startsWith('gym.model.')).map((s) => s.name),
      ['gym.model.messages'],
    );
    assert.equal(span.attributes['nemo.gym.server.name'], 'policy_model');
    assert.equal(span.attributes['gen_ai.request.model'], 'policy');
    assert.equal(span.attributes['gen_ai.usage.input_tokens'], 3);
    assert.equal(span.attributes['gen_ai.usage.output_tokens'], 4);
  });

  it('opens neither with the agent and model_call groups off, and the calls answer the same', () => {
    assert.deepEqual(answers[2]!['reward'], answers[0]!['reward']);
    assert.equal(answers[3]!['type'], 'message');
    // both /run calls made a rollout span and both /v1/messages calls a SERVER span; only the first of each the span of its group
    assert.equal(spans.filter((s) => s.name === 'gym.rollout').length, 2);
    assert.equal(spans.filter((s) => s.name === 'POST /v1/messages').length, 2);
    assert.equal(spans.filter((s) => s.name === 'gym.agent.responses').length, 1);
    assert.equal(spans.filter((s) => s.name === 'gym.model.messages').length, 1);
  });
});
