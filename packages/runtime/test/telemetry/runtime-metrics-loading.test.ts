// The runtime metrics live behind the telemetry boundary: a process with telemetry off, or with
// metrics off, never loads their module (so it starts no observer and no histogram).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const PROBE = fileURLToPath(new URL('./fixtures/init-and-list-modules.ts', import.meta.url));

function probe(extra: Record<string, string>): { telemetry: boolean; runtimeMetrics: boolean } {
  const env = telemetryEnv(extra);
  for (const key of Object.keys(env)) if ((key.startsWith('NEMO_GYM_OTEL_') || key.startsWith('NEMO_LENS_')) && !(key in extra)) delete env[key];
  const child = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', PROBE], { cwd: REPO_ROOT, env, encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { telemetry: boolean; runtimeMetrics: boolean };
}

describe('runtime metrics module', () => {
  it('is not loaded with telemetry off', () => {
    assert.deepEqual(probe({}), { telemetry: false, runtimeMetrics: false });
  });

  it('is not loaded with telemetry on and metrics off', () => {
    assert.deepEqual(probe({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_METRICS_ENABLED: '0' }), { telemetry: true, runtimeMetrics: false });
  });

  it('is loaded with telemetry and metrics on (the probe sees it)', () => {
    assert.deepEqual(probe({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console' }), { telemetry: true, runtimeMetrics: true });
  });
});
