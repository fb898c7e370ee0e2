// The same rollout exported over OTLP (gRPC and HTTP) to a real OTLP receiver in the test.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startOtlpReceiver } from '../../../lens/test/support/otlp-receiver.js';
import type { OtlpReceiver, ReceivedSpan } from '../../../lens/test/support/otlp-receiver.js';
import { REPO_ROOT, startGymEnv } from '../support/gym-process.js';
import { PER_ROLLOUT_TREE, telemetryEnv } from '../support/rollout-tree.js';

const AGENT = 'example_single_tool_call_simple_agent';
const ROW = JSON.parse(readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!);

/** `name [service] <- parent name` for every span: the tree's edges, order-free. */
function edges(spans: ReceivedSpan[]): string[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  return spans.map((s) => `${s.name} [${String(s.resource['service.name']).replace('nemo-gym/', '')}] <- ${byId.get(s.parentSpanId)?.name ?? 'root'}`).sort();
}

function expectedEdges(): string[] {
  const stack: string[] = [];
  return PER_ROLLOUT_TREE.map((line) => {
    const depth = (line.length - line.trimStart().length) / 2;
    const name = line.trim();
    stack[depth] = name.replace(/ \[.*\]$/, '');
    return `${name} <- ${depth === 0 ? 'root' : stack[depth - 1]}`;
  }).sort();
}

for (const protocol of ['grpc', 'http/protobuf'] as const) {
  describe(`telemetry over OTLP ${protocol}`, () => {
    let receiver: OtlpReceiver;
    let traceId: string;
    before(async () => {
      receiver = await startOtlpReceiver();
      const endpoint = protocol === 'grpc' ? receiver.grpcEndpoint : receiver.httpEndpoint;
      const env = await startGymEnv(['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'], {
        env: telemetryEnv({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_SPAN_GROUPS: 'per_rollout', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: protocol }),
      });
      try {
        const res = await fetch(`${env.url(AGENT)}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ROW) });
        assert.equal(res.status, 200);
        traceId = res.headers.get('traceresponse')!.split('-')[1]!;
        assert.equal(await env.stop(), 143);
      } finally {
        await env.dispose();
      }
    });
    after(async () => receiver?.close());

    it('delivers the rollout trace with the same tree', () => {
      const spans = receiver.spans.filter((s) => s.traceId === traceId);
      assert.deepEqual(edges(spans), expectedEdges());
      assert.ok(spans.every((s) => s.transport.startsWith(protocol === 'grpc' ? 'grpc' : 'http')));
    });

    it('delivers the metrics with their names and units', () => {
      const units = new Map(receiver.metrics.map((m) => [m.name, m.raw['unit']]));
      assert.equal(units.get('gym.rollout.duration_ms'), 'ms');
      assert.equal(units.get('gym.verify.duration_ms'), 'ms');
      assert.equal(units.get('gym.model.call_duration_ms'), 'ms');
      assert.equal(units.get('http.server.request.duration'), 's');
      assert.ok(units.has('gym.verify.success_rate'));
      assert.ok(units.has('gym.servers.active'));
    });
  });
}
