// `gym trace push` replays a run to an OTLP collector with the SDK's own exporters: pushed into
// our own receiver (a real OTLP endpoint on loopback) every span comes back with its ids, times,
// kind, status, attributes, events and service, over each protocol.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as grpc from '@grpc/grpc-js';
import { push } from '../src/commands/push.js';
import type { PushProtocol } from '../src/commands/push.js';
import { readSpans } from '../src/read/read-spans.js';
import { startOtlpReceiver } from '../src/receive/receiver.js';
import type { OtlpReceiver } from '../src/receive/receiver.js';
import type { SpanRecord } from '../src/span-record.js';
import { capture } from './support/capture.js';
import { defaultPresetSpans, rolloutSpans, tempDir, writeRunLogs } from './support/fixtures.js';

const cleanups: Array<() => void | Promise<void>> = [];
after(async () => {
  for (const c of cleanups) await c();
});

let run: string;
before(() => {
  const spans = [
    ...defaultPresetSpans(['0-0', '1-0']),
    ...rolloutSpans({ rolloutId: 'solo', atMs: 5000 }).map((s) =>
      s.name === 'gym.model.responses'
        ? { ...s, status: { code: 'ERROR', message: 'overloaded' }, events: [{ name: 'exception', time: '2026-01-01T00:00:05.300000123Z', attributes: { 'exception.type': 'TimeoutError' } }] }
        : s,
    ),
  ];
  const d = writeRunLogs(spans);
  cleanups.push(d.cleanup);
  run = d.dir;
});

async function receiver(): Promise<{ rx: OtlpReceiver; dir: string }> {
  const out = tempDir();
  const rx = await startOtlpReceiver({ outDir: out.dir, grpcPort: 0, httpPort: 0 });
  cleanups.push(async () => {
    await rx.close();
    out.cleanup();
  });
  return { rx, dir: out.dir };
}

// what must survive the trip, per span id
function essence(s: SpanRecord) {
  return [
    s.spanId,
    {
      traceId: s.traceId,
      parent: s.parentSpanId,
      name: s.name,
      kind: s.kind,
      start: s.startNs,
      end: s.endNs,
      status: s.status,
      attributes: s.attributes,
      events: s.events,
      service: s.service,
      resource: s.resource.attributes,
    },
  ] as const;
}

describe('gym trace push', () => {
  for (const protocol of ['http/protobuf', 'http/json', 'grpc'] as const satisfies readonly PushProtocol[]) {
    it(`${protocol}: every span and id round-trips through a real OTLP receiver`, async () => {
      const { rx, dir } = await receiver();
      const port = protocol === 'grpc' ? rx.grpcPort : rx.httpPort;
      const c = capture();
      assert.equal(await push({ paths: [run], endpoint: `http://127.0.0.1:${port}`, protocol, batchSize: 7 }, c), 0, c.err);
      const sent = (await readSpans([run])).spans;
      assert.match(c.out, new RegExp(`^pushed ${sent.length} spans in ${Math.ceil(sent.length / 7)} requests to http://127\\.0\\.0\\.1:${port}`));
      await rx.close();
      const got = (await readSpans([dir])).spans;
      assert.equal(got.length, sent.length);
      assert.deepEqual(new Map(got.map(essence)), new Map(sent.map(essence)));
    });
  }

  it('counts one request as one request', async () => {
    const { rx } = await receiver();
    const c = capture();
    assert.equal(await push({ paths: [run], endpoint: `http://127.0.0.1:${rx.httpPort}`, batchSize: 100_000 }, c), 0, c.err);
    await rx.close();
    assert.match(c.out, /^pushed \d+ spans in 1 request to /);
  });

  it('a collector that is not there is a clear error, not a crash', async () => {
    const { rx } = await receiver();
    const port = rx.httpPort!;
    await rx.close();
    const c = capture();
    assert.equal(await push({ paths: [run], endpoint: `http://127.0.0.1:${port}`, timeoutMs: 1000 }, c), 2);
    assert.match(c.err, /GYM_TRACE_PUSH_FAILED.*did not take the spans.*0 spans were sent before/);
    const bad = capture();
    assert.equal(await push({ paths: [run], endpoint: 'localhost:4318' }, bad), 2);
    assert.match(bad.err, /GYM_TRACE_BAD_OPTION.*--endpoint/);
  });
});

/** A local HTTP endpoint answering every request with `answer`; counts the requests. */
async function httpEndpoint(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests: () => requests };
}

/** A local gRPC endpoint whose trace Export answers `reply` (raw response bytes). */
async function grpcEndpoint(reply: Buffer): Promise<string> {
  const identity = (b: Buffer): Buffer => b;
  const server = new grpc.Server();
  const path = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
  server.addService(
    { Export: { path, requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity } },
    { Export: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, done: grpc.sendUnaryData<Buffer>) => done(null, reply) },
  );
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err === null ? resolve(p) : reject(err))));
  cleanups.push(() => void server.forceShutdown());
  return `http://127.0.0.1:${port}`;
}

/**
 * `ExportTraceServiceResponse { partial_success = 1 { rejected_spans = 1; error_message = 2 } }`, encoded by
 * hand: the OTLP protos the receiver loads predate partial success. Counts and messages below 128 bytes.
 */
function partialSuccess(rejectedSpans: number, errorMessage: string): Buffer {
  const message = Buffer.from(errorMessage);
  const inner = Buffer.concat([Buffer.from([0x08, rejectedSpans]), message.length === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.from([0x12, message.length]), message])]);
  return Buffer.concat([Buffer.from([0x0a, inner.length]), inner]);
}

describe('gym trace push reads what the collector answered', () => {
  let spanCount: number;
  before(async () => {
    spanCount = (await readSpans([run])).spans.length;
  });

  const rejecting = [
    {
      protocol: 'http/protobuf',
      endpoint: () => httpEndpoint((_req, res) => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(partialSuccess(2, 'span name too long'))).then((e) => e.url),
    },
    {
      protocol: 'http/json',
      endpoint: () =>
        httpEndpoint((_req, res) =>
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ partialSuccess: { rejectedSpans: '2', errorMessage: 'span name too long' } })),
        ).then((e) => e.url),
    },
    { protocol: 'grpc', endpoint: () => grpcEndpoint(partialSuccess(2, 'span name too long')) },
  ] as const;
  for (const { protocol, endpoint } of rejecting) {
    it(`${protocol}: spans rejected through OTLP partial success are counted, named and fail the command`, async () => {
      const c = capture();
      assert.equal(await push({ paths: [run], endpoint: await endpoint(), protocol, batchSize: 7 }, c), 2);
      const requests = Math.ceil(spanCount / 7);
      assert.match(
        c.err,
        new RegExp(`GYM_TRACE_PUSH_REJECTED.*rejected ${requests * 2} of the ${spanCount} spans it took \\(partial success in ${requests} of ${requests} requests\\): span name too long`),
      );
    });
  }

  it('a partial success that rejected nothing is a success', async () => {
    const { url } = await httpEndpoint((_req, res) => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(partialSuccess(0, '')));
    const c = capture();
    assert.equal(await push({ paths: [run], endpoint: url }, c), 0, c.err);
    assert.match(c.out, new RegExp(`^pushed ${spanCount} spans`));
  });

  const notOtlp = [
    { what: 'an HTML page with 200', type: 'text/html', body: '<!DOCTYPE html><html><body>Sign in to continue</body></html>', says: /Content-Type 'text\/html'.*Sign in to continue/ },
    { what: 'a wrong content type', type: 'application/octet-stream', body: '\x0a\x00', says: /Content-Type 'application\/octet-stream' instead of application\/x-protobuf/ },
    { what: 'protobuf that does not decode', type: 'application/x-protobuf', body: '<html>', says: /not an ExportTraceServiceResponse/ },
  ];
  for (const { what, type, body, says } of notOtlp) {
    it(`refuses ${what}: not counted as pushed, a clear error, exit 2`, async () => {
      const endpoint = await httpEndpoint((_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
      const c = capture();
      assert.equal(await push({ paths: [run], endpoint: endpoint.url, batchSize: 7 }, c), 2);
      assert.doesNotMatch(c.out, /pushed/);
      assert.match(c.err, /GYM_TRACE_PUSH_NOT_OTLP.*is not an OTLP response/);
      assert.match(c.err, says);
      // the first answer ends the push: reading stops, at most the requests already in flight were sent
      assert.ok(endpoint.requests() <= 2, `${endpoint.requests()} requests`);
    });
  }

  it('retries what the collector asks to retry, then counts the spans', async () => {
    let calls = 0;
    const { url } = await httpEndpoint((_req, res) => {
      if (++calls === 1) res.writeHead(503, { 'retry-after': '0' }).end();
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
    const c = capture();
    assert.equal(await push({ paths: [run], endpoint: url }, c), 0, c.err);
    assert.match(c.out, new RegExp(`^pushed ${spanCount} spans in 1 request `));
    assert.equal(calls, 2);
  });
});
