// Every span, metric point and log record that never reaches the collector is counted, whatever the
// exporter and whatever went wrong: a refusing endpoint, a silent one (accepts, never answers), one
// that goes away half-way, a console stream that fails. Real exporters, real sockets.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { Writable } from 'node:stream';
import { metrics, trace } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';
import { startOtlpReceiver } from '../support/otlp-receiver.js';
import { collectWarnings } from '../support/sinks.js';

const ENDPOINT_VAR = 'OTEL_EXPORTER_OTLP_ENDPOINT';
const savedEndpoint = process.env[ENDPOINT_VAR];
after(() => {
  if (savedEndpoint === undefined) delete process.env[ENDPOINT_VAR];
  else process.env[ENDPOINT_VAR] = savedEndpoint;
});

/** A TCP listener that accepts connections and never answers (a hung collector). */
async function silentListener(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port nothing listens on (connections are refused). */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

function emit(spans: number, records: number): void {
  const tracer = trace.getTracer('losses');
  for (let i = 0; i < spans; i++) tracer.startSpan(`s${i}`).end();
  for (let i = 0; i < records; i++) logs.getLogger('losses').emit({ body: `r${i}` });
  metrics.getMeter('losses').createCounter('losses.counter').add(1);
}

const otlp = (protocol: string) =>
  setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'otlp', logsEnabled: true }), {
    allowReinit: true,
    env: { OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_METRIC_EXPORT_INTERVAL: '600000' },
  });

describe('telemetry losses', () => {
  for (const protocol of ['http/protobuf', 'http/json', 'grpc'] as const) {
    it(`counts every item sent to a silent ${protocol} collector, giving up once it stops answering`, async () => {
      const seen = collectWarnings();
      const silent = await silentListener();
      try {
        process.env[ENDPOINT_VAR] = silent.endpoint;
        const handle = await otlp(protocol);
        emit(37, 5);
        // a long overall limit: the shutdown must give up because nothing answers, not because time ran out
        await handle.shutdown(120_000);
        await seen.settled();
        const losses = handle.losses();
        assert.deepEqual(losses.spans, { accepted: 37, exported: 0, failed: losses.spans.failed, lost: 37 });
        assert.equal(losses['log records'].lost, 5);
        assert.equal(losses['log records'].accepted, 5);
        assert.ok(losses['metric points'].lost >= 1 && losses['metric points'].lost === losses['metric points'].accepted);
        assert.ok(seen.warnings.some((w) => w.code === 'LENS_W009' && /no export answered for 1500 ms/.test(w.message)));
        const final = seen.warnings.filter((w) => w.code === 'LENS_W011');
        assert.equal(final.length, 1);
        assert.match(final[0]!.message, /37 of 37 spans, \d+ of \d+ metric points and 5 of 5 log records were not delivered/);
      } finally {
        seen.stop();
        await silent.close();
      }
    });
  }

  it('counts every item refused by an http/protobuf endpoint', async () => {
    const seen = collectWarnings();
    try {
      process.env[ENDPOINT_VAR] = await closedPort();
      const handle = await otlp('http/protobuf');
      emit(106, 2);
      await handle.shutdown(120_000);
      await seen.settled();
      const losses = handle.losses();
      assert.equal(losses.spans.lost, 106);
      assert.equal(losses['log records'].lost, 2);
      assert.match(seen.warnings.find((w) => w.code === 'LENS_W011')?.message ?? '', /106 of 106 spans/);
    } finally {
      seen.stop();
    }
  });

  it('counts only what was not delivered when the collector goes away half-way', async () => {
    const receiver = await startOtlpReceiver();
    const seen = collectWarnings();
    try {
      process.env[ENDPOINT_VAR] = receiver.httpEndpoint;
      const handle = await otlp('http/protobuf');
      emit(10, 0);
      await handle.forceFlush();
      assert.equal(receiver.spans.length, 10);
      await receiver.close();
      emit(7, 0);
      await handle.shutdown(120_000);
      await seen.settled();
      const spans = handle.losses().spans;
      assert.equal(spans.accepted, 17);
      assert.equal(spans.exported, 10);
      assert.equal(spans.lost, 7);
      assert.match(seen.warnings.find((w) => w.code === 'LENS_W011')?.message ?? '', /7 of 17 spans/);
    } finally {
      seen.stop();
    }
  });

  it('loses nothing and says nothing when everything is delivered', async () => {
    const receiver = await startOtlpReceiver();
    const seen = collectWarnings();
    try {
      process.env[ENDPOINT_VAR] = receiver.grpcEndpoint;
      const handle = await otlp('grpc');
      emit(12, 3);
      await handle.shutdown();
      await seen.settled();
      const losses = handle.losses();
      assert.deepEqual(losses.spans, { accepted: 12, exported: 12, failed: 0, lost: 0 });
      assert.equal(losses['log records'].exported, 3);
      assert.equal(receiver.spans.length, 12);
      assert.equal(seen.warnings.filter((w) => w.code === 'LENS_W011').length, 0);
    } finally {
      seen.stop();
      await receiver.close();
    }
  });

  it('counts what the console exporter could not write once its stream failed', async () => {
    const seen = collectWarnings();
    try {
      const broken = new Writable({ write: (_chunk, _encoding, done) => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
      const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'console', logsEnabled: true }), {
        allowReinit: true,
        output: broken,
        env: { OTEL_METRIC_EXPORT_INTERVAL: '600000' },
      });
      broken.write('x'); // the stream fails before any telemetry is written
      await new Promise((resolve) => setImmediate(resolve));
      emit(9, 4);
      await handle.shutdown();
      await seen.settled();
      const losses = handle.losses();
      assert.equal(losses.spans.lost, 9);
      assert.equal(losses['log records'].lost, 4);
      assert.match(seen.warnings.find((w) => w.code === 'LENS_W011')?.message ?? '', /9 of 9 spans/);
    } finally {
      seen.stop();
    }
  });
});
