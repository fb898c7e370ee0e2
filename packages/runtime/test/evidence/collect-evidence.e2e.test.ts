// Rollout evidence folded into rollout rows, over real processes: the CLI's example environment
// (several rollouts, one capture file each, holding exactly that rollout's calls), and a model
// server killed in the middle of a call (a gap in the failure row, no crash, no half line).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpClient, createServerContext, listen } from '../../../server/src/index.js';
import { collectRollouts } from '../../src/rollouts/collect.js';
import { CaptureStore } from '../../../server/src/evidence/capture-store.js';
import { EXAMPLE_EVAL_RUN, freePort, runGym } from '../support/gym-process.js';
import { agentInstance, readRows } from '../rollouts/test-agent.js';
import { startCaptureModel } from '../../../server/test/evidence/fixtures/model-process.js';
import createExampleSingleToolCall from '../../../../resources_servers/example_single_tool_call/app.js';
import createSimpleAgent from '../../../../responses_api_agents/simple_agent/app.js';

const cleanups: (() => unknown)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gym-evidence-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
type Row = Record<string, any>;

/** simple_agent (evidence on) and the example resources server in this process, the capture model in a child. */
async function evidenceEnvironment() {
  const dir = tempDir();
  const captures = join(dir, 'captures');
  const model = await startCaptureModel(captures, 'policy_model');
  cleanups.push(() => model.kill());
  const http = createHttpClient({ retry: { maxAttempts: 1 } });
  cleanups.push(() => http.close());
  const tree = (resourcesPort: number, agentPort: number) => ({
    observability_enabled: true,
    model_call_capture_dir: captures,
    weather: { resources_servers: { example_single_tool_call: { entrypoint: 'app.ts', domain: 'agent', host: '127.0.0.1', port: resourcesPort } } },
    policy_model: { responses_api_models: { fixture: { entrypoint: 'app.ts', host: '127.0.0.1', port: Number(new URL(model.url).port) } } },
    agent: {
      responses_api_agents: {
        simple_agent: {
          entrypoint: 'app.ts',
          host: '127.0.0.1',
          port: agentPort,
          resources_server: { type: 'resources_servers', name: 'weather' },
          model_server: { type: 'responses_api_models', name: 'policy_model' },
        },
      },
    },
  });
  const resources = (await createExampleSingleToolCall(createServerContext(tree(1, 1), 'weather', http))).build();
  const { port: resourcesPort } = await listen(resources);
  cleanups.push(() => resources.close());
  const agent = (await createSimpleAgent(createServerContext(tree(resourcesPort, 1), 'agent', http))).build();
  const address = await listen(agent);
  cleanups.push(() => agent.close());
  return { dir, captures, model, tree, resourcesPort, address };
}

describe('rollout evidence in collection', () => {
  it('gym eval run: one capture file per rollout, holding its calls, joined into every row and to its trace', async () => {
    const dir = tempDir();
    const captures = join(dir, 'captures');
    const out = join(dir, 'out.jsonl');
    const port = await freePort();
    const run = await runGym([
      ...EXAMPLE_EVAL_RUN,
      '--num-repeats',
      '2',
      '--limit',
      '3',
      '-o',
      out,
      '--log-dir',
      join(dir, 'logs'),
      `++head_server.port=${port}`,
      '++observability_enabled=true',
      `++model_call_capture_dir=${captures}`,
      '++telemetry.enabled=true',
      '++telemetry.exporter=console',
      '++telemetry.span_groups=per_rollout',
    ]);
    assert.equal(run.code, 0, run.stderr);
    // the report written after the run opens each rollout's evidence
    assert.match(run.stdout, /report\.html \(\d+ KiB\): 6 rollouts, \d+ with waterfalls, 6 with rollout evidence/);
    assert.match(run.stdout + run.stderr, /model-call captures: 6 file\(s\), [\d.]+ KiB in /);
    // the automatic health check after the run
    assert.match(run.stdout, /^Rollout health: 6 checked, 6 healthy, 0 unhealthy, 0 unobserved$/m);
    assert.ok(existsSync(join(dir, 'out_quality_summary.json')));
    const rows = readRows(out) as Row[];
    assert.equal(rows.length, 6);
    assert.deepEqual(readdirSync(captures).sort(), rows.map((r) => `${r._ng_task_index}-${r._ng_rollout_index}.capture.jsonl`).sort());
    const store = new CaptureStore(captures);
    for (const row of rows) {
      const id = `${row._ng_task_index}-${row._ng_rollout_index}`;
      const read = store.read(id);
      assert.equal(read.unreadable, 0);
      for (const { exchange } of read.exchanges) assert.equal(exchange['rollout_id'], id);
      const captured = read.exchanges.map((e) => e.exchange['model_call_id']);
      const trajectory = row.ng_trajectory;
      assert.equal(trajectory.schema_version, '1.0');
      assert.equal(trajectory.rollout_id, id);
      assert.deepEqual(trajectory.gaps, []);
      // the agent named exactly the calls that were captured for its rollout, in its order
      assert.deepEqual(
        trajectory.invocations[0].model_calls.map((r: Row) => r.model_call_id),
        captured,
      );
      assert.deepEqual(
        trajectory.model_calls.map((c: Row) => c.invocation_id),
        captured.map(() => `${id}:simple_agent`),
      );
      assert.equal(trajectory.tool_calls.length, captured.length - 1);
      assert.equal(trajectory.tool_calls[0].tool_name, 'get_weather');
      assert.equal(row.ng_model_call_capture.metrics.num_calls, captured.length);
      // payloads live in the trajectory; the capture attachment keeps the index and metrics
      assert.equal(row.ng_model_call_capture.calls[0].request, undefined);
      assert.ok(trajectory.model_calls[0].request.input);
      assert.equal(row.ng_model_call_capture.metrics.tokens_total, row.response.usage.total_tokens);
      assert.equal(row.ng_perf.num_tool_calls, captured.length - 1);
      assert.equal(row.ng_perf.token_observability_coverage, 1);
      // telemetry on: each captured call names the trace of its rollout and its own span
      assert.match(row.trace_id, /^[0-9a-f]{32}$/);
      for (const call of trajectory.model_calls) {
        assert.equal(call.trace_id, row.trace_id);
        assert.match(call.span_id, /^[0-9a-f]{16}$/);
      }
    }
  });

  it('gym eval run with evidence off writes no capture and no evidence keys', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.jsonl');
    const port = await freePort();
    const run = await runGym([...EXAMPLE_EVAL_RUN, '--limit', '1', '-o', out, '--log-dir', join(dir, 'logs'), `++head_server.port=${port}`, `++model_call_capture_dir=${join(dir, 'captures')}`]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(join(dir, 'captures')), false);
    const [row] = readRows(out) as Row[];
    for (const key of ['ng_agent_observations', 'ng_model_call_capture', 'ng_trajectory', 'ng_perf']) assert.equal(row![key], undefined, key);
    assert.doesNotMatch(run.stdout + run.stderr, /model-call captures|Rollout health/);
  });

  it('a model server killed mid-call leaves a gap in the failure row, not a crash or a half line', async () => {
    const { dir, captures, model, tree, resourcesPort, address } = await evidenceEnvironment();
    const instance = agentInstance('agent', 'simple_agent', address);
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, `${JSON.stringify({ responses_create_params: { input: 'hang: weather in sf?' } })}\n`);
    const output = join(dir, 'out.jsonl');
    // a stale capture of an earlier attempt with the same id must not be joined to this one
    await new CaptureStore(captures).append('0-0', { model_call_id: 'stale' });
    void model.printed('hanging').then(() => model.kill());
    const result = await collectRollouts({ environment: { config: tree(resourcesPort, address.port), instances: [instance] }, input, output, disableAggregation: true });
    assert.equal(result.failed, 1);
    const [failure] = readRows(output.replace('.jsonl', '_failures.jsonl')) as Row[];
    const read = new CaptureStore(captures).read('0-0');
    assert.equal(read.unreadable, 0);
    assert.equal(read.exchanges.length, 1, 'the answered first call only');
    assert.notEqual(read.exchanges[0]!.exchange['model_call_id'], 'stale');
    const trajectory = failure!.ng_trajectory;
    assert.equal(trajectory.invocations[0].status, 'failed');
    assert.equal(trajectory.model_calls.length, 1);
    assert.equal(trajectory.model_calls[0].invocation_id, '0-0:simple_agent');
    assert.deepEqual(
      trajectory.gaps.map((g: Row) => g.code),
      ['model_call_capture_incomplete'],
    );
    assert.match(trajectory.gaps[0].detail, /call 2 failed/);
    assert.equal(result.evidence?.files, 1);
  });

  it("an outside caller of the agent's prefixed /v1/responses gets its model calls captured under that id", async () => {
    const { captures, address } = await evidenceEnvironment();
    const http = createHttpClient({ retry: { maxAttempts: 1 } });
    cleanups.push(() => http.close());
    const reply = await http.post<{ output: unknown[] }>(`${address.url}/ng-rollout/7-1/v1/responses`, { input: 'weather in sf?' });
    assert.equal(reply.status, 200);
    const read = new CaptureStore(captures).read('7-1');
    assert.equal(read.exchanges.length, 2, 'the tool-call turn and the answer');
    for (const { exchange } of read.exchanges) assert.equal(exchange['rollout_id'], '7-1');
  });
});
