// Telemetry settings: resolved once per process with one precedence (NEMO_GYM_OTEL_* over
// NEMO_LENS_* over the telemetry: block over defaults) and one reading of values (trimmed; empty is
// unset), then handed to the servers as environment variables, set-if-absent.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyTelemetryEnv, validateTelemetrySettings } from '../../src/telemetry/env.js';
import { resolveTelemetrySettings, serverTelemetrySettings, TELEMETRY_OFF } from '../../../server/src/telemetry/settings.js';

const resolve = (block: Record<string, unknown> | undefined, env: Record<string, string>) => resolveTelemetrySettings(block, env).settings;
const apply = (block: Record<string, unknown> | undefined, env: Record<string, string | undefined>) => applyTelemetryEnv(validateTelemetrySettings(block, env), block, env);

describe('telemetry settings', () => {
  it('decide enablement by the first non-empty of NEMO_GYM_OTEL_ENABLED, NEMO_LENS_ENABLED and the block', () => {
    assert.equal(resolve(undefined, {}).enabled, false);
    assert.equal(resolve(undefined, { NEMO_LENS_ENABLED: ' ON ' }).enabled, true);
    assert.equal(resolve(undefined, { NEMO_LENS_ENABLED: '1', NEMO_GYM_OTEL_ENABLED: '0' }).enabled, false);
    assert.equal(resolve(undefined, { NEMO_LENS_ENABLED: '1', NEMO_GYM_OTEL_ENABLED: '  ' }).enabled, true);
    assert.equal(resolve({ enabled: true }, { NEMO_GYM_OTEL_ENABLED: '' }).enabled, true);
    assert.equal(resolve({ enabled: true }, { NEMO_LENS_ENABLED: 'off' }).enabled, false);
  });

  it('read every key the same way: an empty variable is unset, for booleans and strings alike', () => {
    const settings = resolve(
      { exporter: 'console', span_groups: 'per_rollout', metrics_enabled: false },
      { NEMO_GYM_OTEL_EXPORTER: ' ', NEMO_GYM_OTEL_SPAN_GROUPS: '', NEMO_GYM_OTEL_METRICS_ENABLED: '' },
    );
    assert.equal(settings.exporter, 'console');
    assert.equal(settings.spanGroups, 'per_rollout');
    assert.equal(settings.metricsEnabled, false);
    assert.equal(resolve(undefined, { OTEL_SERVICE_NAME: '' }).serviceGroup, 'nemo-gym');
  });

  it('are frozen', () => {
    const settings = resolve(undefined, { NEMO_GYM_OTEL_ENABLED: '1' });
    assert.ok(Object.isFrozen(settings) && Object.isFrozen(settings.memoryProfiling));
  });

  it('carry memory_profiling from the block or its variables; an unusable interval is the default 1 s', () => {
    assert.deepEqual(resolve({ memory_profiling: { enabled: true, interval_seconds: 0.25 } }, {}).memoryProfiling, { enabled: true, intervalMs: 250 });
    assert.deepEqual(resolve(undefined, { NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED: 'yes' }).memoryProfiling, { enabled: true, intervalMs: 1000 });
    for (const bad of ['0', '-1', 'soon', '']) assert.equal(resolve(undefined, { NEMO_GYM_OTEL_MEMORY_PROFILING_INTERVAL_SECONDS: bad }).memoryProfiling.intervalMs, 1000, bad);
  });

  it('export metrics every second unless OTEL_METRIC_EXPORT_INTERVAL says otherwise', () => {
    assert.equal(resolve(undefined, {}).metricExportIntervalMs, 1000);
    assert.equal(resolve(undefined, { OTEL_METRIC_EXPORT_INTERVAL: ' 250 ' }).metricExportIntervalMs, 250);
    // a standard variable other tools read too: a bad value is the default, never a refusal to start
    const { settings, problems } = resolveTelemetrySettings(undefined, { OTEL_METRIC_EXPORT_INTERVAL: 'often' });
    assert.equal(settings.metricExportIntervalMs, 1000);
    assert.deepEqual(problems, []);
  });

  it('turn a server given a bad value by hand into telemetry off, with one warning', () => {
    assert.equal(serverTelemetrySettings({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_TRACES_ENABLED: 'maybe' }), TELEMETRY_OFF);
  });
});

describe('the environment the orchestrator gives its servers', () => {
  it('is left untouched when telemetry is off', () => {
    const env: Record<string, string> = { PATH: '/bin' };
    assert.equal(apply({ enabled: false, exporter: 'console' }, env).enabled, false);
    assert.deepEqual(env, { PATH: '/bin' });
  });

  it('gets the block set-if-absent, so hand-set variables win, and one run id', () => {
    const env: Record<string, string | undefined> = { NEMO_GYM_OTEL_SPAN_GROUPS: 'per_rollout' };
    const settings = apply({ enabled: true, exporter: 'console', span_groups: 'all', logs_enabled: true, service_name: 'evals', memory_profiling: { enabled: true, interval_seconds: 0.5 } }, env);
    assert.match(settings.runId ?? '', /^[0-9a-f]{12}$/);
    assert.equal(settings.spanGroups, 'per_rollout');
    assert.deepEqual(env, {
      NEMO_GYM_OTEL_ENABLED: '1',
      NEMO_GYM_OTEL_EXPORTER: 'console',
      NEMO_GYM_OTEL_SPAN_GROUPS: 'per_rollout',
      NEMO_GYM_OTEL_LOGS_ENABLED: '1',
      NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED: '1',
      NEMO_GYM_OTEL_MEMORY_PROFILING_INTERVAL_SECONDS: '0.5',
      OTEL_SERVICE_NAME: 'evals',
      NEMO_GYM_OTEL_RUN_ID: settings.runId,
    });
    // what a server resolves from that environment is what the orchestrator resolved
    const server = serverTelemetrySettings(env);
    assert.deepEqual({ ...server }, { ...settings });
  });

  it('lets an explicit NEMO_GYM_OTEL_ENABLED=0 win over enabled: true', () => {
    const env: Record<string, string> = { NEMO_GYM_OTEL_ENABLED: '0' };
    assert.equal(apply({ enabled: true }, env).enabled, false);
    assert.deepEqual(env, { NEMO_GYM_OTEL_ENABLED: '0' });
  });

  it('is enabled from NEMO_LENS_ENABLED alone and carries the YAML settings and the Slurm job as run id', () => {
    const env: Record<string, string | undefined> = { NEMO_LENS_ENABLED: '1', SLURM_JOB_ID: '4242' };
    assert.equal(apply({ span_groups: 'per_rollout' }, env).runId, '4242');
    assert.equal(env['NEMO_GYM_OTEL_SPAN_GROUPS'], 'per_rollout');
    assert.equal(env['NEMO_GYM_OTEL_RUN_ID'], '4242');
  });

  it('keeps a given run id', () => {
    const env: Record<string, string | undefined> = { NEMO_GYM_OTEL_ENABLED: 'yes', NEMO_GYM_OTEL_RUN_ID: 'exp-7', SLURM_JOB_ID: '1' };
    assert.equal(apply(undefined, env).runId, 'exp-7');
  });

  it('is refused with every bad value named, with where it came from and the valid values', () => {
    assert.throws(
      () => validateTelemetrySettings({ exporter: 'jaeger', logs_enabled: 'sometimes' }, { NEMO_LENS_TRACES_ENABLED: 'maybe', OTEL_EXPORTER_OTLP_PROTOCOL: 'udp' }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'GYM_TELEMETRY_INVALID');
        assert.match(error.message, /telemetry\.exporter='jaeger': expected one of otlp, console/);
        assert.match(error.message, /telemetry\.logs_enabled='sometimes'/);
        assert.match(error.message, /NEMO_LENS_TRACES_ENABLED='maybe': expected one of 1\/true\/yes\/on or 0\/false\/no\/off/);
        assert.match(error.message, /OTEL_EXPORTER_OTLP_PROTOCOL='udp': expected one of grpc, http\/protobuf, http\/json/);
        return true;
      },
    );
    assert.doesNotThrow(() => validateTelemetrySettings({ exporter: 'console', enabled: true }, { NEMO_GYM_OTEL_EXPORTER: 'OTLP' }));
  });
});
