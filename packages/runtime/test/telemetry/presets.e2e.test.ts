// Span groups decide which spans exist: the default preset, a group turned off, and metrics.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords, treeLines } from '../support/console-records.js';
import { REPO_ROOT, startGymEnv } from '../support/gym-process.js';
import { ROLLOUT_TREE, telemetryEnv } from '../support/rollout-tree.js';

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
  });

  it('turning one group off removes exactly its spans', async () => {
    const { traceId, spans } = await rolloutUnder('server,http_client,rollout,agent,model_call');
    assert.deepEqual(treeLines(spans, traceId), ROLLOUT_TREE.filter((line) => !line.includes('gym.verify') && !line.includes('.grade')));
  });
});
