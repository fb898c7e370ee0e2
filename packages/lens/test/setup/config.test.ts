import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LensConfigError, NemoLensConfig, setupTelemetry } from '@gym/lens/setup';
import { otlpProtocol } from '../../src/setup/exporters/otlp.js';

describe('NemoLensConfig.fromEnv', () => {
  it('returns the defaults for an empty environment', () => {
    const cfg = NemoLensConfig.fromEnv('NEMO_GYM_OTEL', 'NEMO_LENS', {});
    assert.deepEqual(
      { ...cfg },
      {
        enabled: false,
        serviceName: 'nemo',
        tracesEnabled: true,
        metricsEnabled: true,
        logsEnabled: false,
        spanGroups: 'default',
        exporter: 'otlp',
        runId: '',
        user: '',
        wandbEntity: '',
        wandbProject: '',
      },
    );
  });

  it('prefers the prefix over the fallback over the default', () => {
    const cfg = NemoLensConfig.fromEnv('NEMO_GYM_OTEL', 'NEMO_LENS', {
      NEMO_GYM_OTEL_ENABLED: 'yes',
      NEMO_LENS_ENABLED: 'off',
      NEMO_LENS_EXPORTER: 'console',
      NEMO_LENS_SPAN_GROUPS: 'all',
      NEMO_GYM_OTEL_SPAN_GROUPS: 'per_rollout',
      NEMO_LENS_USER_ID: 'alice',
    });
    assert.equal(cfg.enabled, true);
    assert.equal(cfg.exporter, 'console');
    assert.equal(cfg.spanGroups, 'per_rollout');
    assert.equal(cfg.user, 'alice');
    assert.equal(cfg.tracesEnabled, true);
  });

  it('trims values and treats blank ones as unset', () => {
    const cfg = NemoLensConfig.fromEnv('NEMO_GYM_OTEL', 'NEMO_LENS', {
      NEMO_GYM_OTEL_EXPORTER: '   ',
      NEMO_LENS_EXPORTER: '  console ',
      NEMO_GYM_OTEL_RUN_ID: ' run-7 ',
      NEMO_GYM_OTEL_LOGS_ENABLED: ' ON ',
      OTEL_SERVICE_NAME: '  ',
    });
    assert.equal(cfg.exporter, 'console');
    assert.equal(cfg.runId, 'run-7');
    assert.equal(cfg.logsEnabled, true);
    assert.equal(cfg.serviceName, 'nemo');
  });

  it('reads OTEL_SERVICE_NAME and the W&B variables without a prefix', () => {
    const cfg = NemoLensConfig.fromEnv('NEMO_LENS', undefined, {
      OTEL_SERVICE_NAME: 'nemo-gym/agent',
      WANDB_ENTITY: 'team',
      WANDB_PROJECT: 'proj',
    });
    assert.equal(cfg.serviceName, 'nemo-gym/agent');
    assert.equal(cfg.wandbEntity, 'team');
    assert.equal(cfg.wandbProject, 'proj');
  });

  it('accepts every boolean spelling in any case', () => {
    for (const [raw, expected] of [
      ['1', true],
      ['TRUE', true],
      ['Yes', true],
      ['on', true],
      ['0', false],
      ['False', false],
      ['NO', false],
      ['off', false],
    ] as const) {
      assert.equal(NemoLensConfig.fromEnv('P', undefined, { P_METRICS_ENABLED: raw }).metricsEnabled, expected, raw);
    }
  });

  it('rejects a bad boolean naming the variable it came from and the accepted values', () => {
    assert.throws(
      () => NemoLensConfig.fromEnv('NEMO_GYM_OTEL', 'NEMO_LENS', { NEMO_LENS_TRACES_ENABLED: 'maybe' }),
      (err: unknown) => {
        assert.ok(err instanceof LensConfigError);
        assert.equal(err.code, 'LENS_CONFIG_INVALID_VALUE');
        assert.equal(err.variable, 'NEMO_LENS_TRACES_ENABLED');
        assert.match(err.message, /NEMO_LENS_TRACES_ENABLED/);
        assert.match(err.message, /1, true, yes, on, 0, false, no, off/);
        return true;
      },
    );
  });
});

describe('exporter and protocol validation', () => {
  it('rejects an unknown exporter name listing the valid ones', async () => {
    const cfg = new NemoLensConfig({ enabled: true, exporter: 'zipkin' });
    await assert.rejects(setupTelemetry(cfg, { allowReinit: true, env: {} }), (err: unknown) => {
      assert.ok(err instanceof LensConfigError);
      assert.match(err.message, /'zipkin'/);
      assert.match(err.message, /otlp, console/);
      return true;
    });
  });

  it('picks the per-signal protocol over the generic one, trimmed and lower-cased', () => {
    const env = { OTEL_EXPORTER_OTLP_PROTOCOL: ' HTTP/JSON ', OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: 'grpc' };
    assert.equal(otlpProtocol('traces', env), 'http/json');
    assert.equal(otlpProtocol('logs', env), 'grpc');
    assert.equal(otlpProtocol('metrics', {}), 'grpc');
  });

  it('rejects an unknown protocol naming the variable and the valid protocols', () => {
    assert.throws(
      () => otlpProtocol('metrics', { OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'thrift' }),
      (err: unknown) => {
        assert.ok(err instanceof LensConfigError);
        assert.match(err.message, /OTEL_EXPORTER_OTLP_METRICS_PROTOCOL/);
        assert.match(err.message, /grpc, http\/protobuf, http\/json/);
        return true;
      },
    );
  });
});
