// `gym trace push` replays a run to an OTLP collector with the SDK's own exporters: pushed into
// our own receiver (a real OTLP endpoint on loopback) every span comes back with its ids, times,
// kind, status, attributes, events and service, over each protocol.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
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
