// Span groups decide which spans exist: the default preset, a group turned off, and metrics.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords, treeLines } from '../support/console-records.js';
import { REPO_ROOT, startGymEnv } from '../support/gym-process.js';
import { PER_ROLLOUT_TREE, ROLLOUT_TREE, telemetryEnv } from '../support/rollout-tree.js';

const AGENT = 'example_single_tool_call_simple_agent';
const ROW = JSON.parse(readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!);

async function rolloutUnder(spanGroups: string) {
  const env = await startGymEnv(['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'], {
    env: telemetryEnv({ NEMO_LENS_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: spanGroups }),
  });
  try {
    const res = await fetch(`${env.url(AGENT)}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ROW) });
    assert.equal(res.status, 200);
    const traceId = res.headers.get('traceresponse')!.split('-')[1]!;
    assert.equal(await env.stop(), 143);
    return { traceId, ...readRecords(env.logDir) };
  } finally {
    await env.dispose();
  }
}

describe('span groups over real processes', () => {
  it('default: the documented tree (spine, gym.rollout, model calls and verify), startup spans in the orchestrator, and metrics', async () => {
    const { traceId, spans, metrics, byFile } = await rolloutUnder('default');
    // everything per_rollout draws: the default preset includes model_call and verify (docs/decisions.md)
    assert.deepEqual(treeLines(spans, traceId), ROLLOUT_TREE);
    const startup = byFile['orchestrator.log']!.map((s) => s.name).sort();
    assert.deepEqual(startup, ['gym.startup', 'gym.startup.server', 'gym.startup.server', 'gym.startup.server']);
    const units = Object.fromEntries(metrics.map((m) => [m.name, m.unit]));
    assert.equal(units['gym.rollout.duration_ms'], 'ms');
    assert.equal(units['http.server.request.duration'], 's');
    assert.equal(units['gym.server.startup_duration_ms'], 'ms');
    assert.ok('gym.servers.active' in units);
    assert.ok('gym.rollout.completed_total' in units);
    const server = metrics.find((m) => m.name === 'http.server.request.duration')!;
    const attributeKeys = new Set((server['data_points'] as Array<{ attributes: Record<string, unknown> }>).flatMap((p) => Object.keys(p.attributes)));
    assert.deepEqual([...attributeKeys].sort(), ['http.request.method', 'http.response.status_code', 'http.route']);
    // the original's bucket boundaries, so dashboards that name a bucket read ours
    const bounds = (name: string) => (metrics.find((m) => m.name === name)!['data_points'] as Array<{ bucket_bounds: number[] }>)[0]!.bucket_bounds;
    assert.deepEqual(bounds('http.server.request.duration'), [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
    assert.deepEqual(bounds('gym.rollout.duration_ms'), [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000]);
    assert.deepEqual(bounds('gym.server.startup_duration_ms'), [100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 120000, 300000, 600000, 1800000, 3600000]);
  });

  it('turning one group off removes exactly its spans', async () => {
    const { traceId, spans } = await rolloutUnder('server,http_client,rollout,agent,model_call');
    assert.deepEqual(
      treeLines(spans, traceId),
      PER_ROLLOUT_TREE.filter((line) => !line.includes('gym.verify') && !line.includes('.grade')),
    );
  });
});
