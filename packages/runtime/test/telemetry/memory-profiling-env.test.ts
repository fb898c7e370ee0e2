import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyTelemetryEnv } from '../../src/telemetry/env.js';
import { memoryProfilingSettings } from '../../src/telemetry/memory-profiling-env.js';

describe('telemetry.memory_profiling', () => {
  it('is written as the original names its variables, set-if-absent', () => {
    const env: Record<string, string | undefined> = {};
    applyTelemetryEnv({ enabled: true, memory_profiling: { enabled: true, interval_seconds: 0.5 } }, env);
    assert.equal(env['NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED'], '1');
    assert.equal(env['NEMO_GYM_OTEL_MEMORY_PROFILING_INTERVAL_SECONDS'], '0.5');
    const handSet: Record<string, string | undefined> = { NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED: '0' };
    applyTelemetryEnv({ enabled: true, memory_profiling: { enabled: true } }, handSet);
    assert.equal(handSet['NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED'], '0');
  });

  it('writes nothing when telemetry is off', () => {
    const env: Record<string, string | undefined> = {};
    applyTelemetryEnv({ memory_profiling: { enabled: true } }, env);
    assert.deepEqual(env, {});
  });

  it('is on only with telemetry and metrics on; an unusable interval is the default 1 s', () => {
    const on = { NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED: 'yes' };
    assert.deepEqual(memoryProfilingSettings(on), { enabled: true, intervalMs: 1000 });
    assert.deepEqual(memoryProfilingSettings({ ...on, NEMO_GYM_OTEL_MEMORY_PROFILING_INTERVAL_SECONDS: '0.25' }), { enabled: true, intervalMs: 250 });
    for (const bad of ['0', '-1', 'soon', '']) assert.equal(memoryProfilingSettings({ ...on, NEMO_GYM_OTEL_MEMORY_PROFILING_INTERVAL_SECONDS: bad }).intervalMs, 1000, bad);
    assert.equal(memoryProfilingSettings({ ...on, NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED: 'maybe' }).enabled, false);
    assert.equal(memoryProfilingSettings({ NEMO_LENS_ENABLED: '1', NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED: '1' }).enabled, true);
    assert.equal(memoryProfilingSettings({ ...on, NEMO_LENS_METRICS_ENABLED: 'off' }).enabled, false);
    assert.equal(memoryProfilingSettings({ ...on, NEMO_GYM_OTEL_METRICS_ENABLED: 'on', NEMO_LENS_METRICS_ENABLED: 'off' }).enabled, true);
    assert.equal(memoryProfilingSettings({ NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED: '1' }).enabled, false);
  });
});
