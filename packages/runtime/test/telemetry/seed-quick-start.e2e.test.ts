// The seed's quick start, as its users type it: `NEMO_LENS_ENABLED=1 NEMO_GYM_OTEL_EXPORTER=console
// gym env start …` (no span groups named: the `default` preset) and one `POST /run` give the
// documented tree — gym.rollout → HTTP POST → POST /v1/responses → gym.model.responses and
// … → POST /verify → gym.verify — found with the documented jq recipe, verbatim.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords, treeLines } from '../support/console-records.js';
import type { SpanLine } from '../support/console-records.js';
import { REPO_ROOT, startGymEnv } from '../support/gym-process.js';
import { ROLLOUT_TREE, telemetryEnv } from '../support/rollout-tree.js';

const AGENT = 'example_single_tool_call_simple_agent';
const ROW = readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;

describe("the seed's quick start with console telemetry and the default preset", () => {
  let logDir: string;
  let traceId: string;
  let spans: SpanLine[];
  let cleanup: () => Promise<void>;

  before(async () => {
    const env = await startGymEnv(['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'], {
      env: telemetryEnv({ NEMO_LENS_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console' }),
    });
    cleanup = () => env.dispose();
    const res = await fetch(`${env.url(AGENT)}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ROW });
    assert.equal(res.status, 200);
    traceId = res.headers.get('traceresponse')!.split('-')[1]!;
    assert.equal(await env.stop(), 143);
    logDir = env.logDir;
    spans = readRecords(logDir).spans.filter((s) => s.trace_id === traceId);
  });
  after(async () => cleanup?.());

  it('draws the documented tree from one POST /run', () => {
    assert.deepEqual(treeLines(spans, traceId), ROLLOUT_TREE);
  });

  it('is found by the documented recipe, verbatim', () => {
    const out = execFileSync('bash', ['-c', `grep -h '"trace_id"' *.log | jq -r '"\\(.trace_id) \\(.name)"' | sort`], { cwd: logDir, encoding: 'utf8' });
    const names = out
      .split('\n')
      .filter((line) => line.startsWith(traceId))
      .map((line) => line.slice(33));
    for (const name of ['gym.rollout', 'HTTP POST', 'POST /v1/responses', 'gym.model.responses', 'POST /verify', 'gym.verify']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    assert.deepEqual(names, ROLLOUT_TREE.map((line) => line.trim().replace(/ \[.*\]$/, '')).sort());
  });

  it('puts the rollout id on every span of the rollout, in every process', () => {
    const ids = new Set(spans.map((s) => s.attributes['nemo.gym.rollout.id']));
    assert.deepEqual([...ids], [ids.values().next().value]);
    assert.equal(typeof [...ids][0], 'string');
    assert.deepEqual(
      new Set(spans.map((s) => s.resource.attributes['service.name'])),
      new Set(['nemo-gym/example_single_tool_call_simple_agent', 'nemo-gym/policy_model', 'nemo-gym/example_single_tool_call']),
    );
  });

  it('nests every span inside its parent on one host, to the sub-millisecond', () => {
    const byId = new Map(spans.map((s) => [s.span_id, s]));
    let subMillisecondStarts = 0;
    for (const span of spans) {
      const start = BigInt(span.start_time_unix_nano);
      if (start % 1_000_000n !== 0n) subMillisecondStarts++;
      const parent = span.parent_span_id === null ? undefined : byId.get(span.parent_span_id);
      if (parent === undefined) continue;
      const end = start + BigInt(Math.round(span.duration_ms * 1e6));
      const parentEnd = BigInt(parent.start_time_unix_nano) + BigInt(Math.round(parent.duration_ms * 1e6));
      assert.ok(start >= BigInt(parent.start_time_unix_nano), `${span.name} starts before its parent ${parent.name}`);
      assert.ok(end <= parentEnd + 1000n, `${span.name} ends after its parent ${parent.name}`);
    }
    // one span in a million starts on a whole millisecond by chance; all of them did before
    assert.ok(subMillisecondStarts >= spans.length - 1, `${subMillisecondStarts} of ${spans.length} start below the millisecond`);
  });
});
