import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { metrics, trace } from '@opentelemetry/api';
import { SpanRegistry } from '@gym/lens';
import { enabledSpanGroups, spanGroup } from '@gym/lens/nemo-lens';
import { LensSetupError, NemoLensConfig, ensureRunId, setupTelemetry } from '@gym/lens/setup';
import type { TelemetryHandle } from '@gym/lens/setup';
import { collectWarnings, KeepingSpanExporter, textSink } from '../support/sinks.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Runs setupTelemetry in a fresh process and lists the @opentelemetry packages it loaded. */
function loadedPackages(enabled: boolean, exporter = 'console', protocol = 'grpc'): Promise<string[]> {
  const code = `
    import { createRequire } from 'node:module';
    import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';
    const h = await setupTelemetry(new NemoLensConfig({ enabled: ${enabled}, exporter: '${exporter}', metricsEnabled: false }), { output: process.stderr });
    await h.shutdown();
    const names = Object.keys(createRequire(import.meta.url).cache)
      .map((k) => /node_modules\\/(@opentelemetry\\/[^/]+)/.exec(k)?.[1]).filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)]));`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', code],
      { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', OTEL_EXPORTER_OTLP_PROTOCOL: protocol } },
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- execFile's error is an Error (ExecFileException)
      (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as string[])),
    );
  });
}

describe('setupTelemetry', () => {
  const handles: TelemetryHandle[] = [];
  after(async () => {
    for (const h of handles) await h.shutdown();
  });

  it('loads no SDK module when telemetry is disabled', async () => {
    const [off, on] = await Promise.all([loadedPackages(false), loadedPackages(true)]);
    assert.ok(!off.includes('@opentelemetry/sdk-trace-base'), `loaded: ${off.join(', ')}`);
    assert.deepEqual(
      off.filter((p) => p !== '@opentelemetry/api'),
      [],
    );
    // the control: the same probe sees the SDK when telemetry is on
    assert.ok(on.includes('@opentelemetry/sdk-trace-base'), `loaded: ${on.join(', ')}`);
  });

  it('loads only the OTLP exporter module of the chosen protocol', async () => {
    const loaded = await loadedPackages(true, 'otlp', 'http/json');
    assert.ok(loaded.includes('@opentelemetry/exporter-trace-otlp-http'), `loaded: ${loaded.join(', ')}`);
    assert.ok(!loaded.includes('@opentelemetry/exporter-trace-otlp-grpc'));
    assert.ok(!loaded.includes('@opentelemetry/exporter-trace-otlp-proto'));
  });

  it('returns a no-op handle and pins the enabled span groups empty when disabled', async () => {
    SpanRegistry.register('setup-test', { groups: ['alpha'], presets: { default: ['alpha'] } });
    const handle = await setupTelemetry(new NemoLensConfig({ enabled: false, spanGroups: 'all' }), { env: {} });
    assert.equal(handle.isExporting, false);
    assert.deepEqual(handle.resourceAttributes, {});
    assert.equal(enabledSpanGroups().size, 0);
    SpanRegistry.register('setup-test-late', { groups: ['beta'] });
    assert.equal(spanGroup('beta').enabled, false);
    const span = handle.tracer.startSpan('nothing');
    assert.equal(span.isRecording(), false);
    span.end();
    assert.equal(handle.droppedSpans(), 0);
    assert.equal(handle.shutdown(), handle.shutdown());
    await handle.shutdown();
  });

  it('does not trip the double-init guard with disabled configs', async () => {
    await setupTelemetry(new NemoLensConfig(), { env: {} });
    await setupTelemetry(new NemoLensConfig(), { env: {} });
  });

  it('throws LENS_SETUP_ALREADY_INITIALISED on a second enabled setup unless allowReinit', async () => {
    const exporter = new KeepingSpanExporter();
    const cfg = (): NemoLensConfig => new NemoLensConfig({ enabled: true, metricsEnabled: false });
    handles.push(await setupTelemetry(cfg(), { spanExporter: exporter, allowReinit: true, env: {} }));
    await assert.rejects(setupTelemetry(cfg(), { spanExporter: exporter, env: {} }), (err: unknown) => {
      assert.ok(err instanceof LensSetupError);
      assert.equal(err.code, 'LENS_SETUP_ALREADY_INITIALISED');
      assert.match(err.message, /allowReinit/);
      return true;
    });
    // a disabled config is still accepted afterwards
    const disabled = await setupTelemetry(new NemoLensConfig(), { env: {} });
    assert.equal(disabled.isExporting, false);
    const again = await setupTelemetry(cfg(), { spanExporter: exporter, allowReinit: true, env: {} });
    handles.push(again);
    assert.equal(again.isExporting, true);
  });

  it('sizes its batches from the standard OTEL_BSP_* variables, code options first, bad values warned about', async () => {
    const batches: number[] = [];
    const exporter = new KeepingSpanExporter();
    const counting = Object.assign(Object.create(exporter) as KeepingSpanExporter, {
      export(spans: Parameters<KeepingSpanExporter['export']>[0], done: Parameters<KeepingSpanExporter['export']>[1]) {
        batches.push(spans.length);
        exporter.export(spans, done);
      },
    });
    const seen = collectWarnings();
    try {
      const env = { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '3', OTEL_BSP_SCHEDULE_DELAY: 'soon' };
      const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, metricsEnabled: false }), { spanExporter: counting, allowReinit: true, env });
      handles.push(handle);
      const tracer = trace.getTracer('bsp-env');
      for (let i = 0; i < 10; i++) tracer.startSpan(`s${i}`).end();
      await handle.forceFlush();
      await seen.settled();
      assert.equal(exporter.spans.length, 10);
      assert.ok(Math.max(...batches) <= 3, `batches of ${batches.join(', ')}`);
      assert.deepEqual(
        seen.warnings.map((w) => w.code),
        ['LENS_W007'],
      );
      assert.match(seen.warnings[0]!.message, /OTEL_BSP_SCHEDULE_DELAY="soon"/);
    } finally {
      seen.stop();
    }
  });

  it('behaves as disabled with a LENS_W007 warning when OTEL_SDK_DISABLED=true', async () => {
    const seen = collectWarnings();
    try {
      const handle = await setupTelemetry(new NemoLensConfig({ enabled: true }), { allowReinit: true, env: { OTEL_SDK_DISABLED: 'TRUE' } });
      await seen.settled();
      assert.equal(handle.isExporting, false);
      assert.equal(trace.getTracer('x').startSpan('s').isRecording(), false);
      assert.ok(seen.warnings.some((w) => w.code === 'LENS_W007' && /OTEL_SDK_DISABLED/.test(w.message)));
    } finally {
      seen.stop();
    }
  });

  it('registers the global tracer and meter providers when enabled', async () => {
    const exporter = new KeepingSpanExporter();
    const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, serviceName: 'svc-x', exporter: 'console' }), {
      spanExporter: exporter,
      output: textSink().stream,
      allowReinit: true,
      env: { OTEL_METRIC_EXPORT_INTERVAL: '600000' },
    });
    handles.push(handle);
    assert.equal(handle.isExporting, true);
    assert.equal(handle.resourceAttributes['service.name'], 'svc-x');
    const span = trace.getTracer('t').startSpan('recorded');
    assert.equal(span.isRecording(), true);
    span.end();
    metrics.getMeter('m').createCounter('c').add(1);
    await handle.forceFlush();
    assert.deepEqual(
      exporter.spans.map((s) => s.name),
      ['recorded'],
    );
    assert.equal(exporter.spans[0]!.resource.attributes['service.name'], 'svc-x');
  });

  it('honours OTEL_TRACES_SAMPLER=always_off', async () => {
    const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, metricsEnabled: false }), {
      spanExporter: new KeepingSpanExporter(),
      allowReinit: true,
      env: { OTEL_TRACES_SAMPLER: 'always_off' },
    });
    handles.push(handle);
    assert.equal(trace.getTracer('t').startSpan('dropped').isRecording(), false);
  });
});

describe('ensureRunId', () => {
  it('keeps an explicit run id', () => {
    assert.equal(ensureRunId({ runId: 'mine' }, { SLURM_JOB_ID: '42' }), 'mine');
  });

  it('inherits nemo.run.id from OTEL_RESOURCE_ATTRIBUTES, then uses SLURM_JOB_ID, then 12 random hex', () => {
    assert.equal(ensureRunId({ runId: '' }, { OTEL_RESOURCE_ATTRIBUTES: 'nemo.run.id=exp%2F1', SLURM_JOB_ID: '42' }), 'exp/1');
    const cfg = { runId: '' };
    assert.equal(ensureRunId(cfg, { SLURM_JOB_ID: ' 42 ' }), '42');
    assert.equal(cfg.runId, '42');
    assert.match(ensureRunId({ runId: '' }, {}), /^[0-9a-f]{12}$/);
  });
});
