// Telemetry never breaks a request: with the OTLP endpoint refusing connections, rollouts are served
// and every process still shuts down cleanly, reporting the failed exports.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, freePort, startGymEnv } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const ROW = readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;

for (const protocol of ['grpc', 'http/protobuf'] as const) {
  describe(`an OTLP endpoint that refuses connections (${protocol})`, () => {
    it('serves rollouts, stops cleanly and warns about the lost exports', async () => {
      const closed = await freePort(); // nothing listens there
      const env = await startGymEnv(['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'], {
        env: telemetryEnv({ NEMO_GYM_OTEL_ENABLED: '1', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closed}`, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, NEMO_GYM_OTEL_SPAN_GROUPS: 'per_rollout' }),
      });
      try {
        const agent = env.url('example_single_tool_call_simple_agent');
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`${agent}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ROW });
          assert.equal(res.status, 200);
          assert.equal(((await res.json()) as { reward: number }).reward, 1);
        }
        assert.equal(await env.stop(), 143, env.output());
        const logs = readdirSync(env.logDir)
          .map((f) => readFileSync(join(env.logDir, f), 'utf8'))
          .join('\n');
        assert.match(logs, /LENS_W009/, 'the failed export is reported, not silent');
        assert.match(logs, /LENS_W011\] LensWarning: Telemetry lost by this process: (\d+) of \1 spans/, 'each server counts what it lost');
        assert.match(env.output(), /gym: telemetry not delivered: (\d+) of \1 spans/, 'and gym reports the total of the run');
      } finally {
        await env.dispose();
      }
    });
  });
}
