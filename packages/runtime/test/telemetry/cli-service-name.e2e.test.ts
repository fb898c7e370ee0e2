// The `gym` command's own process carries the original's name for it, `nemo-gym/orchestrator`,
// whether it only starts servers or also collects: dashboards select gym.job by that service.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_EVAL_RUN, freePort, runGym } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

describe('service.name of the gym command', () => {
  it('gym eval run: its gym.job span and its metrics are nemo-gym/orchestrator, type orchestrator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-cli-service-'));
    try {
      const args = [...EXAMPLE_EVAL_RUN, '--limit', '1', '-o', join(dir, 'out.jsonl'), '--log-dir', join(dir, 'logs'), `++head_server.port=${await freePort()}`];
      const { code, stderr } = await runGym(args, { env: telemetryEnv({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'default' }) });
      assert.equal(code, 0, stderr);
      const records = readFileSync(join(dir, 'logs', 'collector.log'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; name?: string; 'service.name': string; attributes?: Record<string, unknown> });
      const job = records.find((r) => r.type === 'span' && r.name === 'gym.job');
      assert.ok(job !== undefined, 'the run wrote its gym.job span');
      assert.equal(job['service.name'], 'nemo-gym/orchestrator');
      // the process's resource is stated once, first; every span and metric line names its service
      const resources = records.filter((r) => r.type === 'resource');
      assert.equal(resources.length, 1);
      assert.equal(records[0], resources[0]);
      assert.equal(resources[0]!.attributes!['nemo.gym.server.type'], 'orchestrator');
      assert.ok(records.filter((r) => r.type === 'metric').every((r) => r['service.name'] === 'nemo-gym/orchestrator'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
