import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { metrics, trace } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';
import { parseJsonLines } from '@gym/lens/testing';
import { collectWarnings, KeepingSpanExporter, textSink } from '../support/sinks.js';

type Line = Record<string, any>;

describe('TelemetryHandle.shutdown', () => {
  it('flushes spans, metrics and logs with a long export interval', async () => {
    const sink = textSink();
    const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'console', logsEnabled: true }), {
      output: sink.stream,
      allowReinit: true,
      batch: { scheduledDelayMillis: 600_000 },
      env: { OTEL_METRIC_EXPORT_INTERVAL: '600000' },
    });
    trace.getTracer('t').startSpan('finished').end();
    metrics.getMeter('m').createCounter('shutdown.counter').add(5);
    logs.getLogger('l').emit({ body: 'last words' });
    assert.equal(sink.text(), '');
    await handle.shutdown();
    const records = parseJsonLines<Line>(sink.text());
    assert.ok(records.some((r) => r['type'] === 'span' && r['name'] === 'finished'));
    assert.ok(records.some((r) => r['type'] === 'metric' && r['name'] === 'shutdown.counter' && r['data_points'][0].value === 5));
    assert.ok(records.some((r) => r['type'] === 'log' && r['body'] === 'last words'));
  });

  it('returns the same promise when called twice', async () => {
    const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, metricsEnabled: false }), {
      spanExporter: new KeepingSpanExporter(),
      allowReinit: true,
      env: {},
    });
    const first = handle.shutdown();
    assert.equal(handle.shutdown(), first);
    assert.equal(handle.shutdown(10), first);
    await first;
  });

  it('ends still-open spans innermost first, marked truncated', async () => {
    const exporter = new KeepingSpanExporter();
    const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, metricsEnabled: false }), {
      spanExporter: exporter,
      allowReinit: true,
      env: {},
    });
    const tracer = trace.getTracer('t');
    tracer.startActiveSpan('outer', (outer) => {
      tracer.startActiveSpan('inner', () => undefined);
      tracer.startSpan('closed').end();
      return outer;
    });
    await handle.shutdown();
    assert.deepEqual(
      exporter.spans.map((s) => s.name),
      ['closed', 'inner', 'outer'],
    );
    for (const span of exporter.spans.slice(1)) {
      assert.equal(span.attributes['nemo.span.truncated'], true);
      assert.equal(span.events.length, 1);
      assert.equal(span.events[0]!.name, 'nemo.span.truncated');
      assert.deepEqual(span.events[0]!.attributes, { 'nemo.span.truncated.reason': 'still open at telemetry shutdown' });
      assert.equal(span.status.code, 0);
    }
    assert.equal(exporter.spans[0]!.attributes['nemo.span.truncated'], undefined);
  });

  it('never rejects when the exporter fails, and warns instead', async () => {
    const seen = collectWarnings();
    try {
      const failing = new KeepingSpanExporter();
      failing.export = (_spans, done) => done({ code: 1 });
      const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, metricsEnabled: false }), {
        spanExporter: failing,
        allowReinit: true,
        env: {},
      });
      trace.getTracer('t').startSpan('lost').end();
      await handle.shutdown(1000);
      await seen.settled();
      assert.ok(seen.warnings.some((w) => w.code === 'LENS_W009' && /spans/.test(w.message)));
    } finally {
      seen.stop();
    }
  });
});

describe('span drops', () => {
  it('counts spans dropped by a full queue and reports them with LENS_W006', async () => {
    const seen = collectWarnings();
    try {
      const exporter = new KeepingSpanExporter();
      const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, metricsEnabled: false }), {
        spanExporter: exporter,
        allowReinit: true,
        batch: { maxQueueSize: 8, maxExportBatchSize: 8, scheduledDelayMillis: 600_000 },
        env: {},
      });
      const tracer = trace.getTracer('t');
      for (let i = 0; i < 1000; i++) tracer.startSpan(`burst-${i}`).end();
      await handle.shutdown();
      await seen.settled();
      const dropped = handle.droppedSpans();
      assert.ok(dropped > 0);
      assert.equal(dropped + exporter.spans.length, 1000);
      const w006 = seen.warnings.filter((w) => w.code === 'LENS_W006');
      assert.equal(w006.length, 1);
      assert.match(w006[0]!.message, new RegExp(`^${dropped} span\\(s\\) were dropped`));
    } finally {
      seen.stop();
    }
  });
});
