// `runInOwnSpan`: the span path of instrumentation that owns its attribute keys (gym's endpoint
// spans, gym.job, gymSpan): a lean span under the given parent with the attributes taken over as
// they are — no copy, no redaction — ended and marked as any lens span; and a sampled-out lean
// span is a bare span context that records nothing.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { getLeanTracer, runInOwnSpan } from '@gym/lens';
import { captureSpans } from '@gym/lens/testing';
import type { SpanCapture } from '@gym/lens/testing';
import { LeanSpan } from '../src/fast-tracer/lean-span.js';

let capture: SpanCapture | undefined;
after(async () => capture?.shutdown());

describe('runInOwnSpan', () => {
  it('takes the attributes over as they are, under the given parent, and ends the span when the promise settles', async () => {
    capture = await captureSpans();
    const tracer = getLeanTracer('nemo.gym', '0.1.0');
    const server = tracer.startSpan('POST /verify', SpanKind.SERVER, undefined, {});
    const parent = trace.setSpan(ROOT_CONTEXT, server);
    // `token` is a key lens redacts in attributes it does not own
    const attributes = { 'nemo.gym.server.name': 'weather', token: 'not-a-secret-here' };
    const seen: unknown[] = [];
    const result = await runInOwnSpan(tracer, 'gym.verify', attributes, parent, async (span) => {
      seen.push(trace.getSpan(context.active()) === span);
      await new Promise((resolve) => setImmediate(resolve));
      span.setAttribute('gym.verify.reward', 1);
      return 'ok';
    });
    server.end();
    assert.equal(result, 'ok');
    assert.deepEqual(seen, [true]);
    const [verify] = await capture.spans();
    assert.equal(verify!.name, 'gym.verify');
    assert.equal(verify!.kind, SpanKind.INTERNAL);
    assert.equal(verify!.parentSpanContext?.spanId, server.spanContext().spanId);
    assert.deepEqual(verify!.attributes, { 'nemo.gym.server.name': 'weather', token: 'not-a-secret-here', 'gym.verify.reward': 1 });
    assert.deepEqual(verify!.instrumentationScope, { name: 'nemo.gym', version: '0.1.0' });
    assert.ok(verify!.endTime[0] > 0);
    await capture.shutdown();
  });

  it('records a failure and rethrows it', async () => {
    capture = await captureSpans();
    const failed = runInOwnSpan(getLeanTracer('nemo.gym'), 'gym.job', {}, ROOT_CONTEXT, async () => {
      await Promise.resolve();
      throw new Error('boom');
    });
    await assert.rejects(failed, /boom/);
    const [job] = await capture.spans();
    assert.deepEqual(job!.status, { code: SpanStatusCode.ERROR, message: 'boom' });
    assert.equal(job!.events[0]!.name, 'exception');
    await capture.shutdown();
  });

  it('is a bare span context when sampled out: nothing recorded, the context still carried', async () => {
    capture = await captureSpans({ env: { OTEL_TRACES_SAMPLER: 'always_off' } });
    const span = getLeanTracer('nemo.gym').startSpan('POST /run', SpanKind.SERVER, undefined, { 'http.route': '/run' });
    assert.ok(!(span instanceof LeanSpan));
    assert.equal(span.isRecording(), false);
    assert.match(span.spanContext().traceId, /^[0-9a-f]{32}$/);
    assert.equal(span.spanContext().traceFlags, 0);
    span.setAttribute('http.response.status_code', 200);
    span.end();
    assert.deepEqual(await capture.spans(), []);
    await capture.shutdown();
  });
});
