// One rollout, one trace, across three real server processes started by `gym env start`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords, treeLines } from '../support/console-records.js';
import type { SpanLine } from '../support/console-records.js';
import { REPO_ROOT, startGymEnv } from '../support/gym-process.js';
import { PER_ROLLOUT_TREE, telemetryEnv } from '../support/rollout-tree.js';

const AGENT = 'example_single_tool_call_simple_agent';
const ROW = JSON.parse(readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!);
const SELECT = ['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'];
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

describe('telemetry across processes with the per_rollout preset and console export', () => {
  let spans: SpanLine[];
  let logDir: string;
  let runTrace: string;
  let embeddedHeader: string | null = 'unset';
  let metricsTraceHeader: string | null;
  let cleanup: () => Promise<void>;

  before(async () => {
    const env = await startGymEnv([...SELECT, '++telemetry.enabled=true', '++telemetry.exporter=console', '++telemetry.span_groups=per_rollout'], { env: telemetryEnv({}) });
    cleanup = () => env.dispose();
    const run = await post(`${env.url(AGENT)}/run`, ROW);
    assert.equal(run.status, 200);
    runTrace = run.headers.get('traceresponse')!.split('-')[1]!;
    const embedded = await post(`${env.url(AGENT)}/run`, ROW, { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` });
    assert.equal(embedded.status, 200);
    // a caller that sent trace context knows its trace: no traceresponse header for it
    embeddedHeader = embedded.headers.get('traceresponse');
    const metrics = await post(`${env.url(AGENT)}/aggregate_metrics`, { verify_responses: [] });
    metricsTraceHeader = metrics.headers.get('traceresponse');
    assert.equal(await env.stop(), 143);
    logDir = env.logDir;
    spans = readRecords(logDir).spans;
  });
  after(async () => cleanup?.());

  it('gives the rollout one trace whose tree is the seed picture', () => {
    assert.deepEqual(treeLines(spans, runTrace), PER_ROLLOUT_TREE);
  });

  it('puts nemo.gym.rollout.id on every span of the rollout, in every process', () => {
    const rollout = spans.filter((s) => s.trace_id === runTrace);
    const ids = new Set(rollout.map((s) => s.attributes['nemo.gym.rollout.id']));
    assert.equal(ids.size, 1);
    assert.match(String([...ids][0]), /^r-[0-9a-f]{12}$/);
  });

  it('names services per server and carries kinds, rewards and token usage', () => {
    const rollout = spans.filter((s) => s.trace_id === runTrace);
    assert.deepEqual([...new Set(rollout.map((s) => s.resource.attributes['service.name']))].sort(), [`nemo-gym/example_single_tool_call`, `nemo-gym/${AGENT}`, 'nemo-gym/policy_model']);
    assert.ok(rollout.every((s) => s.resource.attributes['nemo.gym.service_group'] === 'nemo-gym' && typeof s.resource.attributes['nemo.run.id'] === 'string'));
    assert.equal(new Set(rollout.map((s) => s.resource.attributes['nemo.run.id'])).size, 1);
    assert.deepEqual([...new Set(rollout.filter((s) => s.name === 'HTTP POST').map((s) => s.kind))], ['CLIENT']);
    assert.deepEqual([...new Set(rollout.filter((s) => s.name.startsWith('POST /')).map((s) => s.kind))], ['SERVER']);
    assert.equal(rollout.find((s) => s.name === 'gym.verify')?.attributes['gym.verify.reward'], 1);
    const model = rollout.find((s) => s.name === 'gym.model.responses')!;
    assert.ok((model.attributes['gen_ai.usage.input_tokens'] as number) > 0);
    assert.equal(model.attributes['gen_ai.response.model'], 'simulated-policy');
    const client = rollout.find((s) => s.name === 'HTTP POST')!;
    assert.match(String(client.attributes['url.full']), /^http:\/\/127\.0\.0\.1:\d+\/seed_session$/);
  });

  it('keeps prompts, tool arguments and outputs out of every span', () => {
    const text = JSON.stringify(spans);
    for (const secret of ["what's it like in sf", 'The weather in sf is cold', '{\\"city\\":\\"sf\\"}', 'You are a helpful assistant']) assert.ok(!text.includes(secret), secret);
  });

  it('makes a rollout the child of the caller span an incoming traceparent names', () => {
    const root = spans.find((s) => s.trace_id === CALLER_TRACE && s.name === 'POST /run');
    assert.equal(embeddedHeader, null);
    assert.equal(root?.parent_span_id, CALLER_SPAN);
    assert.deepEqual(treeLines(spans, CALLER_TRACE), PER_ROLLOUT_TREE);
  });

  it('meets the definition of done: one request across two servers is 2 SERVER + 1 CLIENT spans in one trace', () => {
    const traceId = metricsTraceHeader!.split('-')[1]!;
    const trace = spans.filter((s) => s.trace_id === traceId);
    assert.deepEqual(trace.map((s) => s.kind).sort(), ['CLIENT', 'SERVER', 'SERVER']);
    const upstream = trace.find((s) => s.kind === 'SERVER' && s.resource.attributes['service.name'] === `nemo-gym/${AGENT}`)!;
    const client = trace.find((s) => s.kind === 'CLIENT')!;
    const downstream = trace.find((s) => s.kind === 'SERVER' && s !== upstream)!;
    assert.equal(client.parent_span_id, upstream.span_id);
    assert.equal(downstream.parent_span_id, client.span_id);
  });

  it('works with the documented recipe: grep -h \'"trace_id"\' *.log | jq -r \'"\\(.trace_id) \\(.name)"\' | sort', () => {
    const out = execFileSync('bash', ['-c', `grep -h '"trace_id"' *.log | jq -r '"\\(.trace_id) \\(.name)"' | sort`], { cwd: logDir, encoding: 'utf8' });
    const names = out
      .split('\n')
      .filter((l) => l.startsWith(runTrace))
      .map((l) => l.slice(33))
      .sort();
    assert.deepEqual(names, PER_ROLLOUT_TREE.map((l) => l.trim().replace(/ \[.*\]$/, '')).sort());
  });
});
