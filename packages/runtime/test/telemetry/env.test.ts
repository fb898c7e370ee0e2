import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyTelemetryEnv, isTelemetryEnvEnabled, validateTelemetrySettings } from '../../src/telemetry/env.js';

describe('telemetry switches in the environment', () => {
  it('decides enablement by the first non-empty of NEMO_GYM_OTEL_ENABLED and NEMO_LENS_ENABLED', () => {
    assert.equal(isTelemetryEnvEnabled({}), false);
    assert.equal(isTelemetryEnvEnabled({ NEMO_LENS_ENABLED: ' ON ' }), true);
    assert.equal(isTelemetryEnvEnabled({ NEMO_LENS_ENABLED: '1', NEMO_GYM_OTEL_ENABLED: '0' }), false);
    assert.equal(isTelemetryEnvEnabled({ NEMO_LENS_ENABLED: '1', NEMO_GYM_OTEL_ENABLED: '  ' }), true);
    assert.equal(isTelemetryEnvEnabled({ NEMO_GYM_OTEL_ENABLED: 'garbage' }), false);
  });

  it('leaves the environment untouched when telemetry is off', () => {
    const env: Record<string, string> = { PATH: '/bin' };
    assert.equal(applyTelemetryEnv({ enabled: false, exporter: 'console' }, env), undefined);
    assert.deepEqual(env, { PATH: '/bin' });
  });

  it('writes the block set-if-absent, so hand-set variables win, and one run id', () => {
    const env: Record<string, string> = { NEMO_GYM_OTEL_SPAN_GROUPS: 'per_rollout' };
    const runId = applyTelemetryEnv({ enabled: true, exporter: 'console', span_groups: 'all', logs_enabled: true, service_name: 'evals' }, env);
    assert.match(runId ?? '', /^[0-9a-f]{12}$/);
    assert.deepEqual(env, {
      NEMO_GYM_OTEL_ENABLED: '1',
      NEMO_GYM_OTEL_EXPORTER: 'console',
      NEMO_GYM_OTEL_SPAN_GROUPS: 'per_rollout',
      NEMO_GYM_OTEL_LOGS_ENABLED: '1',
      OTEL_SERVICE_NAME: 'evals',
      NEMO_GYM_OTEL_RUN_ID: runId,
    });
  });

  it('lets an explicit NEMO_GYM_OTEL_ENABLED=0 win over enabled: true', () => {
    const env: Record<string, string> = { NEMO_GYM_OTEL_ENABLED: '0' };
    assert.equal(applyTelemetryEnv({ enabled: true }, env), undefined);
  });

  it('enables from NEMO_LENS_ENABLED alone and carries the YAML settings', () => {
    const env: Record<string, string> = { NEMO_LENS_ENABLED: '1', SLURM_JOB_ID: '4242' };
    assert.equal(applyTelemetryEnv({ span_groups: 'per_rollout' }, env), '4242');
    assert.equal(env['NEMO_GYM_OTEL_SPAN_GROUPS'], 'per_rollout');
    assert.equal(env['NEMO_GYM_OTEL_RUN_ID'], '4242');
  });

  it('keeps a given run id', () => {
    const env: Record<string, string> = { NEMO_GYM_OTEL_ENABLED: 'yes', NEMO_GYM_OTEL_RUN_ID: 'exp-7', SLURM_JOB_ID: '1' };
    assert.equal(applyTelemetryEnv(undefined, env), 'exp-7');
  });

  it('names every bad value with where it came from and the valid values', () => {
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
