// vllm_model end to end: `gym env start` with a local OpenAI-compatible upstream (the fake vLLM,
// a separate process from the gym servers) answering over real HTTP, with an injected dropped connection, 429 and 500s,
// and the rollout's trace showing the upstream CLIENT span under `gym.model.responses`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords } from '../../../packages/runtime/test/support/console-records.js';
import type { SpanLine } from '../../../packages/runtime/test/support/console-records.js';
import { REPO_ROOT, startGymEnv } from '../../../packages/runtime/test/support/gym-process.js';
import type { GymEnv } from '../../../packages/runtime/test/support/gym-process.js';
import { telemetryEnv } from '../../../packages/runtime/test/support/rollout-tree.js';
import { defaultChatCompletion, startFakeVllm } from './fake-vllm.js';
import type { FakeVllm, RecordedRequest } from './fake-vllm.js';

const AGENT = 'example_single_tool_call_simple_agent';
const MODEL = 'fake-vllm-policy';
const API_KEY = 'sk-test-secret-123';
const CHAT = '/v1/chat/completions';
const ROW = JSON.parse(readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!) as Record<string, unknown>;

type Json = Record<string, unknown>;

/** A vLLM chat completion calling get_weather for sf (hermes tool parser shape). */
function toolCallCompletion(request: RecordedRequest): Json {
  const completion = defaultChatCompletion(request.body ?? {}, MODEL, 'upstream');
  const choice = (completion['choices'] as Json[])[0]!;
  choice['finish_reason'] = 'tool_calls';
  choice['message'] = {
    role: 'assistant',
    content: null,
    reasoning_content: null,
    tool_calls: [{ id: 'chatcmpl-tool-e2e1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"sf"}' } }],
  };
  return completion;
}

/** A vLLM chat completion answering with text after the tool result. */
function textCompletion(request: RecordedRequest): Json {
  const completion = defaultChatCompletion(request.body ?? {}, MODEL, 'upstream');
  const choice = (completion['choices'] as Json[])[0]!;
  choice['message'] = { role: 'assistant', content: 'It is cold in sf.', reasoning_content: null, tool_calls: [] };
  return completion;
}

interface Run {
  status: number;
  traceId: string;
  /** The span id of `traceresponse`: the SERVER span of `/run`. */
  spanId: string;
  body: Json;
  /** Chat completion requests the fake received during this rollout. */
  upstreamCalls: number;
}

async function run(env: GymEnv, vllm: FakeVllm): Promise<Run> {
  const before = vllm.requests.filter((r) => r.path === CHAT).length;
  const res = await fetch(`${env.url(AGENT)}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ROW) });
  const text = await res.text();
  let body: Json;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = { text };
  }
  const header = res.headers.get('traceresponse');
  assert.match(String(header), /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/, `traceresponse of /run: ${header}`);
  const [, traceId, spanId] = header!.split('-');
  return { status: res.status, traceId: traceId!, spanId: spanId!, body, upstreamCalls: vllm.requests.filter((r) => r.path === CHAT).length - before };
}

/** A console span record with its events (console-records.ts leaves them untyped). */
type Span = SpanLine & { events: Array<{ name: string; attributes: Record<string, unknown> }> };

const service = (s: SpanLine) => String(s.resource.attributes['service.name']);
const childrenOf = (spans: Span[], parent: SpanLine) => spans.filter((s) => s.parent_span_id === parent.span_id);
const outputOf = (rollout: Run) => (rollout.body['response'] as { output: Json[] }).output;

describe('vllm_model under gym env start against a local vLLM stand-in, traced', () => {
  let vllm: FakeVllm | undefined;
  let env: GymEnv | undefined;
  let clean: Run;
  let retried: Run;
  let failed: Run;
  let exitCode: number | null;
  let spans: Span[];
  let upstream: RecordedRequest[];
  let upstreamOrigin: string;
  let output: string;
  let logFiles: Record<string, string>;
  let globalConfigYaml: string;
  let rootAfterFailure: { agent: number; model: number };

  before(async () => {
    vllm = await startFakeVllm({ model: MODEL, name: 'upstream' });
    upstreamOrigin = vllm.origin;
    upstream = vllm.requests;
    env = await startGymEnv(
      ['--resources-server', 'example_single_tool_call', '--model-type', 'vllm_model', `++policy_base_url=${vllm.baseUrl}`, `++policy_api_key=${API_KEY}`, `++policy_model_name=${MODEL}`],
      { env: telemetryEnv({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'per_rollout' }) },
    );
    // the body is the YAML text as a JSON string, as in the original
    globalConfigYaml = (await (await fetch(`${env.headUrl}/global_config_dict_yaml`)).json()) as string;

    vllm.reply(CHAT, toolCallCompletion, textCompletion);
    clean = await run(env, vllm);

    // a dropped connection on the first model call, one 429 on the second (queued while the first
    // is answered), then the scripted answers
    const thenRateLimit = (request: RecordedRequest): Json => {
      vllm!.fail(CHAT, { status: 429, body: { object: 'error', message: 'rate limited', type: 'RateLimitError', code: 429 }, headers: { 'retry-after': '0' } });
      return toolCallCompletion(request);
    };
    vllm.fail(CHAT, 'disconnect');
    vllm.reply(CHAT, thenRateLimit, textCompletion);
    retried = await run(env, vllm);

    // every attempt the clients could make answers 500
    vllm.fail(CHAT, ...Array.from({ length: 5 }, () => ({ status: 500, body: { object: 'error', message: 'CUDA out of memory', type: 'InternalServerError', code: 500 } })));
    failed = await run(env, vllm);
    rootAfterFailure = { agent: (await fetch(`${env.url(AGENT)}/`)).status, model: (await fetch(`${env.url('policy_model')}/`)).status };

    exitCode = await env.stop();
    output = env.output();
    spans = readRecords(env.logDir).spans as Span[];
    const files = readdirSync(env.logDir)
      .map((f) => join(env!.logDir, f))
      .filter((f) => statSync(f).isFile());
    logFiles = Object.fromEntries(files.map((f) => [f, readFileSync(f, 'utf8')]));
  });

  after(async () => {
    await env?.dispose();
    await vllm?.close();
  });

  it('runs the rollout through the upstream: tool call, tool output, message, reward 1', () => {
    assert.equal(clean.status, 200, JSON.stringify(clean.body));
    assert.equal(clean.body['reward'], 1);
    const output = outputOf(clean);
    assert.deepEqual(
      output.map((item) => item['type']),
      ['function_call', 'function_call_output', 'message'],
    );
    assert.equal(output[0]!['name'], 'get_weather');
    assert.equal(output[0]!['arguments'], '{"city":"sf"}');
    assert.match(String(output[1]!['output']), /The weather in sf is cold/);
    assert.equal(clean.upstreamCalls, 2);
  });

  it('sends the configured model and API key to the upstream, and the trace context with them, but not the rollout id', () => {
    const calls = upstream.filter((r) => r.path === CHAT);
    assert.ok(calls.length > 0);
    for (const call of calls) {
      assert.equal(call.body?.['model'], MODEL);
      assert.equal(call.headers['authorization'], `Bearer ${API_KEY}`);
      assert.match(String(call.headers['traceparent']), /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      // gym's baggage (the rollout id) stays between gym servers
      assert.equal(call.headers['baggage'], undefined);
    }
    // the first call of the clean rollout is a child of its CLIENT span, in the rollout's trace
    const [, traceId, parentId] = String(calls[0]!.headers['traceparent']).split('-');
    assert.equal(traceId, clean.traceId);
    const client = spans.find((s) => s.span_id === parentId)!;
    assert.equal(client.name, 'HTTP POST');
    assert.equal(client.kind, 'CLIENT');
    assert.equal(service(client), 'nemo-gym/policy_model');
  });

  /** The CLIENT spans from the policy model to the upstream in one trace, by start time. */
  const upstreamClientSpans = (traceId: string) =>
    spans
      .filter((s) => s.trace_id === traceId && s.kind === 'CLIENT' && service(s) === 'nemo-gym/policy_model')
      .sort((a, b) => (BigInt(a.start_time_unix_nano) < BigInt(b.start_time_unix_nano) ? -1 : 1));

  it('retries a dropped connection and a 429 from the upstream inside their CLIENT spans and still completes the rollout', () => {
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.equal(retried.body['reward'], 1);
    assert.deepEqual(
      outputOf(retried).map((item) => item['type']),
      ['function_call', 'function_call_output', 'message'],
    );
    assert.equal(retried.upstreamCalls, 4);
    const upstreamClients = upstreamClientSpans(retried.traceId);
    assert.equal(upstreamClients.length, 2);
    const [first, second] = upstreamClients;
    assert.equal(first!.attributes['http.request.resend_count'], 1);
    assert.equal(first!.attributes['http.response.status_code'], 200);
    assert.deepEqual(
      first!.events.map((e) => [e.name, e.attributes['attempt'], e.attributes['reason']]),
      [['gym.http.retry', 1, 'server_disconnected']],
    );
    assert.equal(second!.attributes['http.request.resend_count'], 1);
    assert.equal(second!.attributes['http.response.status_code'], 200);
    assert.equal(second!.status.code, 'UNSET');
    assert.deepEqual(
      second!.events.map((e) => [e.name, e.attributes['attempt'], e.attributes['reason']]),
      [['gym.http.retry', 1, 'http_429']],
    );
  });

  it('puts the upstream CLIENT span under gym.model.responses of the policy model, with token usage', () => {
    for (const rollout of [clean, retried]) {
      const trace = spans.filter((s) => s.trace_id === rollout.traceId);
      const root = trace.find((s) => s.parent_span_id === null)!;
      assert.equal(root.name, 'POST /run');
      assert.equal(root.span_id, rollout.spanId);
      const models = trace.filter((s) => s.name === 'gym.model.responses');
      assert.equal(models.length, 2);
      for (const model of models) {
        assert.equal(service(model), 'nemo-gym/policy_model');
        const parent = trace.find((s) => s.span_id === model.parent_span_id)!;
        assert.equal(parent.name, 'POST /v1/responses');
        assert.equal(parent.kind, 'SERVER');
        const children = childrenOf(trace, model);
        assert.deepEqual(
          children.map((c) => [c.name, c.kind, service(c), c.attributes['url.full'], c.attributes['http.response.status_code']]),
          [['HTTP POST', 'CLIENT', 'nemo-gym/policy_model', `${upstreamOrigin}/v1/chat/completions`, 200]],
        );
        assert.equal(model.attributes['gen_ai.usage.input_tokens'], 12);
        assert.equal(model.attributes['gen_ai.usage.output_tokens'], 4);
        assert.equal(model.attributes['gen_ai.response.model'], MODEL);
        // the row sends no `model`: the span names the model the server used (its configured one)
        assert.equal(model.attributes['gen_ai.request.model'], MODEL);
      }
    }
  });

  it('puts one nemo.gym.rollout.id on every span of each rollout, in every process', () => {
    const seen = new Set<unknown>();
    for (const rollout of [clean, retried, failed]) {
      const trace = spans.filter((s) => s.trace_id === rollout.traceId);
      assert.ok(trace.length > 0);
      const missing = trace.filter((s) => typeof s.attributes['nemo.gym.rollout.id'] !== 'string').map((s) => `${s.name} [${service(s)}]`);
      assert.deepEqual(missing, []);
      const ids = new Set(trace.map((s) => s.attributes['nemo.gym.rollout.id']));
      assert.equal(ids.size, 1);
      const [id] = ids;
      assert.match(String(id), /^r-[0-9a-f]{12}$/);
      assert.equal(seen.has(id), false);
      seen.add(id);
      assert.equal(new Set(trace.map(service)).size, 3);
    }
  });

  it('never writes the API key to a log file, the terminal or the head server config', () => {
    assert.ok(Object.keys(logFiles).length >= 4, Object.keys(logFiles).join(', '));
    for (const [file, text] of Object.entries(logFiles)) assert.equal(text.includes(API_KEY), false, file);
    assert.equal(output.includes(API_KEY), false);
    assert.equal(globalConfigYaml.includes(API_KEY), false);
    assert.match(globalConfigYaml, /^ {6}api_key: "?\[REDACTED\]"?$/m);
    assert.match(globalConfigYaml, /^policy_api_key: "?\[REDACTED\]"?$/m);
    assert.ok(globalConfigYaml.includes(upstreamOrigin));
  });

  it('fails the rollout with a 5xx when the upstream answers 500, and keeps serving', () => {
    assert.ok(failed.status >= 500 && failed.status < 600, String(failed.status));
    assert.match(JSON.stringify(failed.body), /CUDA out of memory/);
    // a 500 is not retried: one upstream call, then the rollout fails
    assert.equal(failed.upstreamCalls, 1);
    assert.deepEqual(rootAfterFailure, { agent: 200, model: 200 });
  });

  it('marks the model server SERVER span, gym.model.responses and the upstream CLIENT span of a 500 as ERROR', () => {
    const trace = spans.filter((s) => s.trace_id === failed.traceId);
    const server = trace.filter((s) => s.name === 'POST /v1/responses' && s.kind === 'SERVER' && service(s) === 'nemo-gym/policy_model');
    assert.equal(server.length, 1);
    assert.equal(server[0]!.status.code, 'ERROR');
    assert.equal(server[0]!.attributes['http.response.status_code'], 500);
    const [model] = childrenOf(trace, server[0]!);
    assert.equal(model?.name, 'gym.model.responses');
    assert.equal(model.status.code, 'ERROR');
    const [client] = childrenOf(trace, model);
    assert.equal(client?.name, 'HTTP POST');
    assert.equal(client.kind, 'CLIENT');
    assert.equal(client.attributes['url.full'], `${upstreamOrigin}/v1/chat/completions`);
    assert.equal(client.attributes['http.response.status_code'], 500);
    assert.equal(client.status.code, 'ERROR');
    const root = trace.find((s) => s.parent_span_id === null)!;
    assert.equal(root.name, 'POST /run');
    assert.equal(root.status.code, 'ERROR');
  });

  it('exits 143 on SIGTERM', () => {
    assert.equal(exitCode, 143, output);
  });
});
