import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { metrics, SpanKind, trace } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import { getLeanTracer } from '@gym/lens';
import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';
import { startOtlpReceiver } from '../support/otlp-receiver.js';
import type { OtlpReceiver } from '../support/otlp-receiver.js';

const PROTOCOLS = ['grpc', 'http/protobuf', 'http/json'] as const;
const ENDPOINT_VAR = 'OTEL_EXPORTER_OTLP_ENDPOINT';

describe('otlp exporter', () => {
  let receiver: OtlpReceiver;
  const savedEndpoint = process.env[ENDPOINT_VAR];

  before(async () => {
    receiver = await startOtlpReceiver();
  });
  after(async () => {
    if (savedEndpoint === undefined) delete process.env[ENDPOINT_VAR];
    else process.env[ENDPOINT_VAR] = savedEndpoint;
    await receiver.close();
  });

  for (const protocol of PROTOCOLS) {
    it(`exports traces, metrics and logs over ${protocol}`, async () => {
      receiver.clear();
      // the OpenTelemetry exporters read their endpoint from process.env themselves
      process.env[ENDPOINT_VAR] = protocol === 'grpc' ? receiver.grpcEndpoint : receiver.httpEndpoint;
      const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'otlp', logsEnabled: true, serviceName: `svc-${protocol}` }), {
        allowReinit: true,
        env: { OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_METRIC_EXPORT_INTERVAL: '600000' },
      });
      const tracer = trace.getTracer('otlp-test');
      let ids = { trace: '', root: '', child: '' };
      tracer.startActiveSpan('gym.rollout', { attributes: { 'nemo.gym.rollout.id': 'r-9', attempt: 2, ok: true } }, (root) => {
        tracer.startActiveSpan('HTTP POST', (child) => {
          logs.getLogger('otlp-test').emit({ body: `hello over ${protocol}`, attributes: { k: 'v' } });
          ids = { trace: root.spanContext().traceId, root: root.spanContext().spanId, child: child.spanContext().spanId };
          child.end();
        });
        root.end();
      });
      metrics.getMeter('otlp-test').createCounter('gym.test.counter').add(4);
      await handle.shutdown();

      const transport = protocol;
      const spans = receiver.spans.filter((s) => s.transport === transport);
      const root = spans.find((s) => s.name === 'gym.rollout');
      const child = spans.find((s) => s.name === 'HTTP POST');
      assert.ok(root && child, `spans received: ${JSON.stringify(receiver.spans.map((s) => [s.transport, s.name]))}`);
      assert.equal(root.traceId, ids.trace);
      assert.equal(child.traceId, ids.trace);
      assert.equal(root.spanId, ids.root);
      assert.equal(root.parentSpanId, '');
      assert.equal(child.parentSpanId, ids.root);
      assert.equal(child.spanId, ids.child);
      assert.deepEqual(root.attributes, { 'nemo.gym.rollout.id': 'r-9', attempt: 2, ok: true });
      assert.equal(root.resource['service.name'], `svc-${protocol}`);

      const metric = receiver.metrics.find((m) => m.transport === transport && m.name === 'gym.test.counter');
      assert.ok(metric, `metrics received: ${JSON.stringify(receiver.metrics.map((m) => [m.transport, m.name]))}`);
      assert.equal(metric.resource['service.name'], `svc-${protocol}`);

      const log = receiver.logs.find((l) => l.transport === transport && l.body === `hello over ${protocol}`);
      assert.ok(log, `logs received: ${JSON.stringify(receiver.logs)}`);
      assert.equal(log.traceId, ids.trace);
      assert.equal(log.spanId, ids.child);
      assert.deepEqual(log.attributes, { k: 'v' });

      const expectedType = { grpc: undefined, 'http/protobuf': 'application/x-protobuf', 'http/json': 'application/json' }[protocol];
      if (expectedType === undefined) assert.deepEqual(receiver.contentTypes, []);
      else for (const type of receiver.contentTypes) assert.ok(type.startsWith(expectedType), type);
    });
  }

  // each export is a request of fixed cost, so lens's OTLP exporters get batches of up to 1024
  // spans (the console writer and exporters given in code keep 256); OTEL_BSP_* still win
  for (const [env, requests] of [
    [{}, 1],
    [{ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '256' }, 3],
  ] as const) {
    it(`sends 600 spans in ${requests} request(s) with ${JSON.stringify(env)}`, async () => {
      receiver.clear();
      process.env[ENDPOINT_VAR] = receiver.httpEndpoint;
      const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'otlp', metricsEnabled: false, serviceName: 'svc-batch' }), {
        allowReinit: true,
        env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', ...env },
      });
      const tracer = getLeanTracer('otlp-test');
      for (let i = 0; i < 600; i++) tracer.startSpan(`span ${i}`, SpanKind.INTERNAL, undefined, { i }).end();
      await handle.shutdown();
      assert.equal(receiver.spans.length, 600);
      assert.equal(receiver.contentTypes.length, requests);
      assert.deepEqual(handle.losses().spans, { accepted: 600, exported: 600, failed: 0, lost: 0 });
    });
  }
});
