import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { readSpans } from '../src/read/read-spans.js';
import { startOtlpReceiver } from '../src/receive/receiver.js';
import type { OtlpReceiver } from '../src/receive/receiver.js';
import { serviceFileName } from '../src/receive/service-files.js';
import { tempDir } from './support/fixtures.js';

const out = tempDir();
let rx: OtlpReceiver;
before(async () => {
  rx = await startOtlpReceiver({ outDir: out.dir, grpcPort: 0, httpPort: 0 });
});
after(async () => {
  await rx.close();
  out.cleanup();
});

/** Exports a SERVER parent with one INTERNAL child through `exporter`; returns their ids. */
async function exportPair(exporter: SpanExporter, service: string): Promise<{ traceId: string; parentId: string; childId: string }> {
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': service, 'nemo.run.id': 'run-rx' }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('gym.receive.test', '1.2.3');
  const parent = tracer.startSpan('POST /run', { kind: SpanKind.SERVER, attributes: { 'http.route': '/run', 'http.response.status_code': 200 } });
  const child = tracer.startSpan('gym.rollout', { attributes: { 'nemo.gym.rollout.id': '7-0', 'gym.tags': ['a', 'b'], 'gym.ratio': 0.5, 'gym.ok': true } }, trace.setSpan(context.active(), parent));
  child.addEvent('gym.http.retry', { attempt: 1 });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  child.end();
  parent.end();
  await provider.forceFlush();
  await provider.shutdown();
  return { traceId: parent.spanContext().traceId, parentId: parent.spanContext().spanId, childId: child.spanContext().spanId };
}

const PROTOCOLS = [
  { name: 'grpc', make: () => new GrpcExporter({ url: `http://127.0.0.1:${rx.grpcPort}` }) },
  { name: 'http/protobuf', make: () => new ProtoExporter({ url: `http://127.0.0.1:${rx.httpPort}/v1/traces` }) },
  { name: 'http/json', make: () => new JsonExporter({ url: `http://127.0.0.1:${rx.httpPort}/v1/traces` }) },
  { name: 'http/protobuf gzip', make: () => new ProtoExporter({ url: `http://127.0.0.1:${rx.httpPort}/v1/traces`, compression: CompressionAlgorithm.GZIP }) },
] as const;

describe('startOtlpReceiver with the official OpenTelemetry exporters', () => {
  for (const p of PROTOCOLS) {
    it(`writes spans received over ${p.name} as console records our readers read back`, async () => {
      const service = `nemo-gym/rx_${p.name.replace(/\W/g, '_')}`;
      const ids = await exportPair(p.make(), service);
      const file = out.path(serviceFileName(service));
      assert.equal(serviceFileName(service), `${service.replace('/', '_')}.jsonl`);
      assertLines(file, 2);
      const { spans, stats } = await readSpans([file]);
      assert.equal(stats.malformedLines, 0);
      assert.equal(spans.length, 2);
      const parent = spans.find((s) => s.spanId === ids.parentId)!;
      const child = spans.find((s) => s.spanId === ids.childId)!;
      assert.equal(parent.traceId, ids.traceId);
      assert.equal(child.traceId, ids.traceId);
      assert.equal(parent.name, 'POST /run');
      assert.equal(parent.kind, 'SERVER');
      assert.equal(parent.parentSpanId, null);
      assert.equal(child.parentSpanId, ids.parentId);
      assert.equal(child.name, 'gym.rollout');
      assert.equal(child.kind, 'INTERNAL');
      assert.deepEqual(child.attributes, { 'nemo.gym.rollout.id': '7-0', 'gym.tags': ['a', 'b'], 'gym.ratio': 0.5, 'gym.ok': true });
      assert.equal(parent.attributes['http.response.status_code'], 200);
      assert.deepEqual(child.status, { code: 'ERROR', message: 'boom' });
      assert.equal(child.events[0]?.name, 'gym.http.retry');
      assert.equal(child.service, service);
      assert.equal(child.resource.attributes['nemo.run.id'], 'run-rx');
      assert.deepEqual(child.scope, { name: 'gym.receive.test', version: '1.2.3' });
      assert.ok(child.ended && child.endNs >= child.startNs);
    });
  }

  it('writes the console record shape with trace_id and name at the top level', async () => {
    const service = 'nemo-gym/rx_shape';
    const ids = await exportPair(new JsonExporter({ url: `http://127.0.0.1:${rx.httpPort}/v1/traces` }), service);
    const file = out.path(serviceFileName(service));
    assertLines(file, 2);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const child = lines.find((l) => l['span_id'] === ids.childId)!;
    assert.deepEqual(Object.keys(child), [
      'type',
      'trace_id',
      'span_id',
      'parent_span_id',
      'name',
      'kind',
      'start_time',
      'end_time',
      'start_time_unix_nano',
      'end_time_unix_nano',
      'duration_ms',
      'status',
      'attributes',
      'events',
      'links',
      'resource',
      'scope',
    ]);
    assert.equal(child['type'], 'span');
    assert.equal(child['trace_id'], ids.traceId);
    assert.equal(child['parent_span_id'], ids.parentId);
    assert.match(String(child['start_time']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    assert.deepEqual(child['status'], { code: 'ERROR', message: 'boom' });
    assert.deepEqual(child['scope'], { name: 'gym.receive.test', version: '1.2.3' });
  });
});

describe('startOtlpReceiver over gRPC', () => {
  it('answers INVALID_ARGUMENT, saying why, to a request it cannot decode, and keeps serving', async () => {
    const client = new grpc.Client(`127.0.0.1:${rx.grpcPort}`, grpc.credentials.createInsecure());
    const call = (bytes: Buffer) =>
      new Promise<grpc.ServiceError | null>((resolve) =>
        client.makeUnaryRequest(
          '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
          (b: Buffer) => b,
          (b: Buffer) => b,
          bytes,
          (err) => resolve(err),
        ),
      );
    try {
      // resource_spans whose length runs past the end of the request
      const err = await call(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]));
      assert.equal(err?.code, grpc.status.INVALID_ARGUMENT);
      assert.match(err.details, /Cannot decode the traces export request: field 1 runs past the end/);
      // an empty request is a valid one, answered OK
      assert.equal(await call(Buffer.alloc(0)), null);
    } finally {
      client.close();
    }
    const service = 'nemo-gym/rx_after_bad_grpc';
    await exportPair(new GrpcExporter({ url: `http://127.0.0.1:${rx.grpcPort}` }), service);
    assertLines(out.path(serviceFileName(service)), 2);
  });
});

describe('startOtlpReceiver over HTTP', () => {
  const url = (signal: string) => `http://127.0.0.1:${rx.httpPort}/v1/${signal}`;
  const post = (signal: string, body: string | Buffer, headers: Record<string, string>) => fetch(url(signal), { method: 'POST', body, headers });

  it('answers an empty JSON export with {} and a protobuf one with an empty body', async () => {
    const json = await post('traces', '{"resourceSpans":[]}', { 'content-type': 'application/json' });
    assert.equal(json.status, 200);
    assert.equal(json.headers.get('content-type'), 'application/json');
    assert.deepEqual(await json.json(), {});
    const proto = await post('metrics', Buffer.alloc(0), { 'content-type': 'application/x-protobuf' });
    assert.equal(proto.status, 200);
    assert.equal(proto.headers.get('content-type'), 'application/x-protobuf');
    assert.equal((await proto.arrayBuffer()).byteLength, 0);
  });

  it('answers 400 to bodies it cannot decode', async () => {
    const badJson = await post('traces', '{"resourceSpans": [', { 'content-type': 'application/json' });
    assert.equal(badJson.status, 400);
    assert.match(((await badJson.json()) as { message: string }).message, /Cannot decode the traces export request/);
    assert.equal((await post('traces', '{"resourceSpans": 3}', { 'content-type': 'application/json' })).status, 400);
    assert.equal((await post('traces', '[1,2]', { 'content-type': 'application/json' })).status, 400);
    const badProto = await post('traces', Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), { 'content-type': 'application/x-protobuf' });
    assert.equal(badProto.status, 400);
    assert.equal(badProto.headers.get('content-type'), 'application/x-protobuf');
    const badGzip = await post('traces', Buffer.from('not gzip'), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    assert.equal(badGzip.status, 400);
  });

  it('answers 415 to other content types and encodings, 404 and 405 elsewhere', async () => {
    assert.equal((await post('traces', 'x', { 'content-type': 'text/plain' })).status, 415);
    assert.equal((await post('traces', '{}', { 'content-type': 'application/json', 'content-encoding': 'br' })).status, 415);
    assert.equal((await post('profiles', '{}', { 'content-type': 'application/json' })).status, 404);
    const get = await fetch(url('traces'));
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  });

  it('accepts gzip JSON and writes metrics and logs as console records', async () => {
    const resource = { attributes: [{ key: 'service.name', value: { stringValue: 'nemo-gym/rx_signals' } }] };
    const metrics = {
      resourceMetrics: [
        {
          resource,
          scopeMetrics: [
            {
              scope: { name: 'm' },
              metrics: [
                {
                  name: 'gym.rollout.duration_ms',
                  unit: 'ms',
                  histogram: { aggregationTemporality: 2, dataPoints: [{ startTimeUnixNano: '1', timeUnixNano: '2', count: '3', sum: 30, explicitBounds: [10], bucketCounts: ['1', '2'] }] },
                },
              ],
            },
          ],
        },
      ],
    };
    const logs = {
      resourceLogs: [
        {
          resource,
          scopeLogs: [
            {
              scope: { name: 'l' },
              logRecords: [{ timeUnixNano: '1767225600000000000', severityNumber: 9, severityText: 'INFO', body: { stringValue: 'hello' }, traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) }],
            },
          ],
        },
      ],
    };
    const m = await post('metrics', gzipSync(JSON.stringify(metrics)), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    assert.equal(m.status, 200);
    assert.equal((await post('logs', JSON.stringify(logs), { 'content-type': 'application/json; charset=utf-8' })).status, 200);
    const file = out.path('nemo-gym_rx_signals.jsonl');
    assertLines(file, 2);
    const [metric, log] = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    assert.equal(metric!['type'], 'metric');
    assert.equal(metric!['kind'], 'HISTOGRAM');
    assert.equal(metric!['temporality'], 'CUMULATIVE');
    assert.deepEqual(metric!['data_points'][0].bucket_counts, [1, 2]);
    assert.equal(metric!['data_points'][0].count, 3);
    assert.equal(log!['type'], 'log');
    assert.equal(log!['body'], 'hello');
    assert.equal(log!['trace_id'], 'ab'.repeat(16));
    assert.equal(log!['time'], '2026-01-01T00:00:00.000000000Z');
    assert.ok(rx.counts().metrics >= 1 && rx.counts().logs >= 1);
  });

  it('answers 413 to bodies over the limit and keeps hostile service names inside the directory', async () => {
    const small = tempDir();
    const r = await startOtlpReceiver({ outDir: small.dir, grpcPort: null, httpPort: 0, maxBodyBytes: 1024 });
    try {
      const big = await fetch(`http://127.0.0.1:${r.httpPort}/v1/traces`, { method: 'POST', body: 'x'.repeat(4096), headers: { 'content-type': 'application/json' } });
      assert.equal(big.status, 413);
      const bomb = await fetch(`http://127.0.0.1:${r.httpPort}/v1/traces`, {
        method: 'POST',
        body: gzipSync(' '.repeat(100_000)),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      assert.equal(bomb.status, 413);
      const span = { traceId: '1'.repeat(32), spanId: '2'.repeat(16), name: 'x', startTimeUnixNano: '5', endTimeUnixNano: '6' };
      const body = { resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: '../../evil' } }] }, scopeSpans: [{ spans: [span] }] }] };
      assert.equal((await fetch(`http://127.0.0.1:${r.httpPort}/v1/traces`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })).status, 200);
    } finally {
      await r.close();
    }
    assert.deepEqual(readdirSync(small.dir), ['_.._.._evil.jsonl']);
    small.cleanup();
  });
});

// The receiver answers only after the lines are written, so the file is complete when the export resolves.
function assertLines(file: string, n: number): void {
  assert.equal(readFileSync(file, 'utf8').split('\n').filter(Boolean).length, n, file);
}
