// The hot path's tracer on its own, against an in-memory exporter: a lean span starts a trace or
// joins its parent's, keeps the times and attributes it was given, reaches the exporter once when
// it ends, and records nothing when sampled out or when lens's telemetry is not set up; the
// traceparent header it travels in survives a round trip and a malformed one starts a new trace.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { HrTime, SpanContext } from '@opentelemetry/api';
import { formatTraceparent, getLeanTracer, LEAN_ROOT_CONTEXT, parseTraceparent } from '@gym/lens';
import { captureSpans } from '@gym/lens/testing';
import type { SpanCapture } from '@gym/lens/testing';

const SCOPE = 'lean-tracer-test';
const at = (seconds: number, nanos = 0): HrTime => [seconds, nanos];

// first: lens is not set up in this process yet
describe('the lean tracer without lens set up (telemetry disabled)', () => {
  it('starts spans that record nothing and throw on no call', () => {
    const span = getLeanTracer(`${SCOPE}-off`).startSpan('POST /run', SpanKind.SERVER, undefined, { 'url.path': '/run' });
    assert.equal(span.isRecording(), false);
    span.setAttribute('http.response.status_code', 200);
    span.addEvent('retry');
    span.end();
  });
});

describe('the lean tracer with lens set up', () => {
  let capture: SpanCapture;
  after(async () => capture.shutdown());

  it('starts a trace, nests a child under its parent, and exports each span once when it ends', async () => {
    capture = await captureSpans();
    const tracer = getLeanTracer(SCOPE, '1.2.3');
    const server = tracer.startSpan('POST /run', SpanKind.SERVER, undefined, { 'url.path': '/run' }, at(100));
    const client = tracer.startSpan('HTTP POST', SpanKind.CLIENT, server.spanContext(), { 'http.request.method': 'POST' }, at(100, 500_000_000));
    assert.equal(client.spanContext().traceId, server.spanContext().traceId);
    assert.notEqual(client.spanContext().spanId, server.spanContext().spanId);
    client.setAttribute('http.response.status_code', 200);
    client.end(at(101));
    client.end(at(105)); // a second end changes nothing
    server.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream failed' });
    server.end(at(102));

    const spans = await capture.spans();
    assert.deepEqual(
      spans.map((s) => s.name),
      ['HTTP POST', 'POST /run'],
    );
    const [c, s] = spans as [(typeof spans)[0], (typeof spans)[0]];
    assert.equal(s.parentSpanContext, undefined);
    assert.equal(c.parentSpanContext?.spanId, server.spanContext().spanId);
    assert.equal(c.kind, SpanKind.CLIENT);
    assert.deepEqual(c.attributes, { 'http.request.method': 'POST', 'http.response.status_code': 200 });
    assert.deepEqual([c.startTime, c.endTime], [at(100, 500_000_000), at(101)]);
    assert.deepEqual(c.duration, [0, 500_000_000]);
    assert.deepEqual(s.status, { code: SpanStatusCode.ERROR, message: 'upstream failed' });
    assert.deepEqual(s.instrumentationScope, { name: SCOPE, version: '1.2.3' });
    assert.equal(c.ended && s.ended, true);
  });

  it('joins a remote parent from its traceparent, and records nothing under a parent that was not sampled', async () => {
    capture.reset();
    const tracer = getLeanTracer(SCOPE);
    const remote = parseTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')!;
    const joined = tracer.startSpan('POST /verify', SpanKind.SERVER, remote, {});
    assert.equal(joined.spanContext().traceId, '0af7651916cd43dd8448eb211c80319c');
    joined.end();
    const unsampled: SpanContext = { ...remote, traceFlags: 0 };
    const dropped = tracer.startSpan('POST /verify', SpanKind.SERVER, unsampled, { 'url.path': '/verify' });
    // a sampled-out span still carries the trace to its children, and records nothing
    assert.equal(dropped.spanContext().traceId, remote.traceId);
    assert.equal(dropped.spanContext().traceFlags, 0);
    assert.equal(dropped.isRecording(), false);
    dropped.end();
    const spans = await capture.spans();
    assert.deepEqual(
      spans.map((s) => [s.name, s.parentSpanContext?.spanId]),
      [['POST /verify', 'b7ad6b7169203331']],
    );
  });
});

describe('traceparent', () => {
  it('round-trips a span context, as a remote parent', () => {
    const context: SpanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };
    const header = formatTraceparent(context);
    assert.equal(header, '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    assert.deepEqual(parseTraceparent(header), { ...context, isRemote: true });
    assert.deepEqual(parseTraceparent([header.toUpperCase(), 'ignored']), { ...context, isRemote: true });
  });

  it('treats a malformed header as absent, so the request starts a new trace', () => {
    for (const header of [
      undefined,
      '',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e473x-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra',
      '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01extra',
      ' 01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1',
      '0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g',
    ]) {
      assert.equal(parseTraceparent(header), undefined, String(header));
    }
  });

  it('reads a later version by its first four fields', () => {
    const remote = parseTraceparent(' 01-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-03-what-comes-next ');
    assert.deepEqual(remote, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1, isRemote: true });
  });
});

describe('the lean context', () => {
  it('sets, reads and deletes values without changing the context it came from', () => {
    const key = Symbol('rollout');
    const other = Symbol('span');
    const one = LEAN_ROOT_CONTEXT.setValue(key, 'r-1');
    const two = one.setValue(other, 'span-1').setValue(key, 'r-2');
    assert.equal(LEAN_ROOT_CONTEXT.getValue(key), undefined);
    assert.equal(one.getValue(key), 'r-1');
    assert.equal(two.getValue(key), 'r-2');
    assert.equal(two.getValue(other), 'span-1');
    const deleted = two.deleteValue(key);
    assert.equal(deleted.getValue(key), undefined);
    assert.equal(deleted.getValue(other), 'span-1');
    assert.equal(two.getValue(key), 'r-2');
  });
});
