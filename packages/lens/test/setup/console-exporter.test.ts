import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { SpanKind, SpanStatusCode, metrics, trace } from '@opentelemetry/api';
import { logs, SeverityNumber } from '@opentelemetry/api-logs';
import pino from 'pino';
import { NemoLensConfig, lensPinoOptions, setupTelemetry } from '@gym/lens/setup';
import type { TelemetryHandle } from '@gym/lens/setup';
import { CONSOLE_SPAN_FIELDS, CONSOLE_SPAN_OPTIONAL_FIELDS } from '@gym/names';
import { parseJsonLines } from '@gym/lens/testing';
import { JsonLinesWriter } from '../../src/setup/exporters/json-lines-writer.js';
import { collectWarnings, textSink } from '../support/sinks.js';

type Line = Record<string, any>;

describe('console exporter', () => {
  let handle: TelemetryHandle | undefined;
  after(async () => handle?.shutdown());

  it('writes spans, metrics and log records as one JSON object per line', async () => {
    const sink = textSink();
    handle = await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'console', logsEnabled: true, serviceName: 'nemo-gym/simple_agent' }), {
      output: sink.stream,
      allowReinit: true,
      env: { OTEL_METRIC_EXPORT_INTERVAL: '600000' },
    });
    const log = pino({ ...lensPinoOptions() }, new Writable({ write: (_c, _e, cb) => cb() }));
    const tracer = trace.getTracer('test-scope', '1.2.3');
    tracer.startActiveSpan('gym.rollout', { attributes: { 'nemo.gym.rollout.id': 'r-1' } }, (root) => {
      tracer.startActiveSpan('HTTP POST', { kind: SpanKind.CLIENT }, (child) => {
        child.addEvent('retry', { attempt: 2 });
        child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
        log.info({ tool: 'search' }, 'calling %s', 'tool');
        child.end();
      });
      root.end();
    });
    metrics.getMeter('test-meter').createCounter('gym.rollouts', { unit: '{rollout}', description: 'rollouts' }).add(2, { ok: true });
    metrics.getMeter('test-meter').createHistogram('gym.rollout.duration_ms', { unit: 'ms' }).record(12.5);
    logs.getLogger('direct').emit({ severityNumber: SeverityNumber.WARN, severityText: 'WARN', body: 'uncorrelated' });
    await handle.shutdown();

    const lines = sink.text().trimEnd().split('\n');
    const records = parseJsonLines<Line>(sink.text());
    assert.equal(records.length, lines.length);
    for (const line of lines) assert.ok(!line.includes('\n') && line.startsWith('{"type":'), line);

    const spans = records.filter((r) => r['type'] === 'span');
    const root = spans.find((s) => s['name'] === 'gym.rollout')!;
    const child = spans.find((s) => s['name'] === 'HTTP POST')!;
    // the fields in @gym/names's order, without events, links and a service instance id (none here)
    assert.deepEqual(
      Object.keys(root),
      CONSOLE_SPAN_FIELDS.filter((f) => !['events', 'links', 'service.instance.id'].includes(f)),
    );
    // the resource is stated once, first on the stream, not on every line
    const resources = records.filter((r) => r['type'] === 'resource');
    assert.equal(resources.length, 1);
    assert.equal(lines[0], JSON.stringify(resources[0]));
    assert.deepEqual(Object.keys(resources[0]!), ['type', 'service.name', 'process.pid', 'attributes']);
    assert.equal(resources[0]!['service.name'], 'nemo-gym/simple_agent');
    assert.equal(resources[0]!['process.pid'], process.pid);
    assert.equal(resources[0]!['attributes']['service.name'], 'nemo-gym/simple_agent');
    assert.equal(resources[0]!['attributes']['process.pid'], process.pid);
    for (const r of records.filter((x) => x['type'] !== 'resource')) {
      assert.equal(r['resource'], undefined);
      assert.equal(r['service.name'], 'nemo-gym/simple_agent');
      assert.equal(r['process.pid'], process.pid);
    }
    assert.match(root['trace_id'], /^[0-9a-f]{32}$/);
    assert.match(root['span_id'], /^[0-9a-f]{16}$/);
    assert.equal(root['parent_span_id'], null);
    assert.equal(child['parent_span_id'], root['span_id']);
    assert.equal(child['trace_id'], root['trace_id']);
    assert.equal(child['kind'], 'CLIENT');
    assert.equal(root['kind'], 'INTERNAL');
    assert.deepEqual(child['status'], { code: 'ERROR', message: 'boom' });
    assert.deepEqual(root['status'], { code: 'UNSET', message: null });
    assert.equal(root['attributes']['nemo.gym.rollout.id'], 'r-1');
    assert.equal(child['events'][0].name, 'retry');
    assert.match(child['events'][0].time_unix_nano, /^\d{19}$/);
    assert.deepEqual(child['events'][0].attributes, { attempt: 2 });
    assert.equal(typeof root['duration_ms'], 'number');
    assert.ok(root['duration_ms'] >= 0);
    assert.equal(typeof root['start_time_unix_nano'], 'string');
    const startNs = BigInt(root['start_time_unix_nano']);
    const endNs = BigInt(root['end_time_unix_nano']);
    assert.ok(endNs >= startNs);
    assert.equal(root['start_time'], undefined);
    assert.deepEqual(root['scope'], { name: 'test-scope', version: '1.2.3' });
    assert.equal(root['events'], undefined);
    assert.equal(root['links'], undefined);

    const metricLines = records.filter((r) => r['type'] === 'metric');
    const counter = metricLines.find((m) => m['name'] === 'gym.rollouts')!;
    assert.equal(counter['kind'], 'SUM');
    assert.equal(counter['unit'], '{rollout}');
    assert.equal(counter['is_monotonic'], true);
    assert.deepEqual(counter['data_points'][0].attributes, { ok: true });
    assert.equal(counter['data_points'][0].value, 2);
    assert.deepEqual(Object.keys(counter['data_points'][0]), ['attributes', 'start_time_unix_nano', 'end_time_unix_nano', 'value']);
    assert.ok(!JSON.stringify(counter).includes('trace_id'));
    const histogram = metricLines.find((m) => m['name'] === 'gym.rollout.duration_ms')!;
    assert.equal(histogram['kind'], 'HISTOGRAM');
    assert.equal(histogram['data_points'][0].count, 1);
    assert.equal(histogram['data_points'][0].sum, 12.5);
    assert.equal(histogram['data_points'][0].bucket_counts.length, histogram['data_points'][0].bucket_bounds.length + 1);

    const logLines = records.filter((r) => r['type'] === 'log');
    const bridged = logLines.find((l) => l['body'] === 'calling tool')!;
    assert.equal(bridged['severity_text'], 'info');
    assert.equal(bridged['severity_number'], SeverityNumber.INFO);
    assert.equal(bridged['attributes']['tool'], 'search');
    assert.equal(bridged['trace_id'], child['trace_id']);
    assert.equal(bridged['span_id'], child['span_id']);
    assert.equal(bridged['trace_flags'], 1);
    const direct = logLines.find((l) => l['body'] === 'uncorrelated')!;
    assert.equal(direct['trace_id'], undefined);
  });

  it('adds the active span ids to pino records through the mixin', async () => {
    const sink = textSink();
    handle = await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'console', metricsEnabled: false }), {
      output: textSink().stream,
      allowReinit: true,
      env: {},
    });
    const log = pino({ ...lensPinoOptions({ exportLogs: false }) }, sink.stream);
    log.info('outside');
    let ids = { traceId: '', spanId: '' };
    trace.getTracer('t').startActiveSpan('work', (span) => {
      ids = span.spanContext();
      log.info('inside');
      span.end();
    });
    await handle.shutdown();
    const [outside, inside] = parseJsonLines<Line>(sink.text());
    assert.equal(outside!['trace_id'], undefined);
    assert.equal(inside!['trace_id'], ids.traceId);
    assert.equal(inside!['span_id'], ids.spanId);
    assert.equal(inside!['trace_flags'], '01');
  });
});

describe('JsonLinesWriter', () => {
  it('buffers while the stream is backed up, then drops and reports the overflow', async () => {
    const chunks: string[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 1,
      write(chunk, _enc, cb) {
        chunks.push(String(chunk));
        release = cb;
      },
    });
    const seen = collectWarnings();
    try {
      const writer = new JsonLinesWriter(slow, { maxBufferedRecords: 3 });
      for (let i = 0; i < 10; i++) writer.writeItems([{ i }], (r) => JSON.stringify(r));
      assert.equal(writer.dropped, 6);
      const flushed = writer.flush();
      while (release) {
        const next = release;
        release = undefined;
        next();
        await new Promise((resolve) => setImmediate(resolve));
      }
      await flushed;
      await seen.settled();
      assert.deepEqual(
        chunks.map((c) => JSON.parse(c).i),
        [0, 1, 2, 3],
      );
      assert.ok(seen.warnings.some((w) => w.code === 'LENS_W010' && /dropped 6 record/.test(w.message)));
    } finally {
      seen.stop();
    }
  });

  it('swallows stream errors after one warning and never throws', async () => {
    const broken = new Writable({ write: (_c, _e, cb) => cb(new Error('EPIPE')) });
    const seen = collectWarnings();
    try {
      const writer = new JsonLinesWriter(broken);
      writer.writeItems([{ a: 1 }], (r) => JSON.stringify(r));
      await new Promise((resolve) => broken.once('error', resolve));
      writer.writeItems([{ a: 2 }], (r) => JSON.stringify(r));
      await writer.flush();
      await seen.settled();
      assert.equal(seen.warnings.filter((w) => w.code === 'LENS_W009').length, 1);
      assert.ok(writer.dropped >= 1);
    } finally {
      seen.stop();
    }
  });
});

describe('spanLine', () => {
  it("writes the naming contract's fields in order, escaping names, messages, attributes and the identity", async () => {
    const { spanLine } = await import('../../src/setup/exporters/span-record.js');
    const { processIdentity } = await import('../../src/setup/exporters/process-identity.js');
    const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
    const { resourceFromAttributes } = await import('@opentelemetry/resources');
    const exporter = new InMemorySpanExporter();
    const resource = resourceFromAttributes({ 'service.name': 'nemo-gym/"quoted"', 'service.instance.id': 'w-"1"', 'process.pid': 7, n: 3 });
    const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const own = { name: 'scope "x"', version: '1.0' };
    const tracer = provider.getTracer(own.name, own.version);
    const parent = tracer.startSpan('parent');
    const { trace, context, SpanStatusCode } = await import('@opentelemetry/api');
    const child = provider
      .getTracer('user code')
      .startSpan('name with "quotes"\nand a newline', { links: [{ context: parent.spanContext(), attributes: { why: 'retry' } }] }, trace.setSpan(context.active(), parent));
    child.setAttributes({ s: '</script>"\\', list: [1, 2], flag: true });
    child.addEvent('gym.http.retry', { attempt: 1 });
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom "x"' });
    child.end();
    parent.end();
    const identity = processIdentity(resource, own);
    const [childSpan, parentSpan] = exporter.getFinishedSpans();
    const childLine = spanLine(childSpan!, identity);
    const parentLine = spanLine(parentSpan!, identity);
    assert.ok(!childLine.includes('\n'));
    const childRecord = JSON.parse(childLine);
    const parentRecord = JSON.parse(parentLine);
    // the fields and their order are the naming contract's, which gym trace reads by
    const optional = new Set<string>(CONSOLE_SPAN_OPTIONAL_FIELDS);
    assert.deepEqual(
      Object.keys(childRecord),
      [...CONSOLE_SPAN_FIELDS].filter((f) => f !== 'process.pid'),
    );
    assert.deepEqual(
      Object.keys(parentRecord),
      [...CONSOLE_SPAN_FIELDS].filter((f) => !optional.has(f) || f === 'service.instance.id' || f === 'scope'),
    );
    assert.equal(childRecord.name, 'name with "quotes"\nand a newline');
    assert.deepEqual(childRecord.attributes, { s: '</script>"\\', list: [1, 2], flag: true });
    assert.deepEqual(childRecord.status, { code: 'ERROR', message: 'boom "x"' });
    assert.deepEqual(childRecord.links, [{ trace_id: parentRecord.trace_id, span_id: parentRecord.span_id, attributes: { why: 'retry' } }]);
    assert.deepEqual(childRecord.scope, { name: 'user code', version: null });
    assert.equal(childRecord['service.name'], 'nemo-gym/"quoted"');
    assert.equal(childRecord['service.instance.id'], 'w-"1"');
    const stated = JSON.parse(identity.record);
    assert.deepEqual(stated, {
      type: 'resource',
      'service.name': 'nemo-gym/"quoted"',
      'service.instance.id': 'w-"1"',
      'process.pid': 7,
      scope: { name: own.name, version: own.version },
      attributes: resource.attributes,
    });
    await provider.shutdown();
  });
});
