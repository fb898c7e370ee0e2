import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { setEnabledSpanGroups } from '../src/index.js';
import { emitSpan, extractContext, injectContext, managedSpan, NOOP_SPAN, spanCm, spanGroup, startGroupSpan, traceFn } from '../src/nemo-lens.js';
import { installTracing } from './tracing-fixture.js';
import type { TracingFixture } from './tracing-fixture.js';
import { captureWarnings } from './warnings-fixture.js';

const ON = spanGroup('primitives_on');
const OFF = spanGroup('primitives_off');
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('span primitives', () => {
  let tracing: TracingFixture;
  before(() => {
    tracing = installTracing();
  });
  after(async () => {
    setEnabledSpanGroups([]);
    await tracing.uninstall();
  });
  beforeEach(() => {
    setEnabledSpanGroups(['primitives_on']);
    tracing.reset();
  });

  it('managedSpan records a span with filtered attributes when its group is enabled', () => {
    const out = managedSpan(
      ON,
      'work',
      (span) => {
        assert.equal(span.isRecording(), true);
        return 42;
      },
      { n: 1, keep: 'yes', skip: null, obj: { a: 1 }, list: [1, 2], password: 'hunter2' },
    );
    assert.equal(out, 42);
    const [span] = tracing.spans();
    assert.equal(span?.name, 'work');
    assert.deepEqual(span?.attributes, { n: 1, keep: 'yes', list: [1, 2], password: '[REDACTED]' });
  });

  it('managedSpan runs the function with NOOP_SPAN and creates nothing when disabled', () => {
    let seen: unknown;
    const out = managedSpan(
      OFF,
      'work',
      (span) => {
        seen = span;
        return 'done';
      },
      { expensive: 1 },
    );
    assert.equal(out, 'done');
    assert.equal(seen, NOOP_SPAN);
    assert.equal(tracing.spans().length, 0);
  });

  it('accepts a group name as well as a gate object', () => {
    managedSpan('primitives_on', 'by-name', () => undefined);
    managedSpan('primitives_off', 'nope', () => undefined);
    assert.deepEqual(
      tracing.spans().map((s) => s.name),
      ['by-name'],
    );
  });

  it('keeps an async span open until its promise settles and parents spans opened inside it', async () => {
    let endedBeforeSettle = true;
    await managedSpan(ON, 'outer', async () => {
      await tick();
      await managedSpan(ON, 'inner', async () => tick());
      endedBeforeSettle = tracing.spans().some((s) => s.name === 'outer');
    });
    assert.equal(endedBeforeSettle, false);
    const outer = tracing.spans().find((s) => s.name === 'outer');
    const inner = tracing.spans().find((s) => s.name === 'inner');
    assert.ok(outer && inner);
    assert.equal(inner.parentSpanContext?.spanId, outer.spanContext().spanId);
    assert.equal(inner.spanContext().traceId, outer.spanContext().traceId);
    assert.ok(outer.duration[0] > 0 || outer.duration[1] >= 1_000_000);
  });

  it('records a rejected promise as an exception event and ERROR status, then rethrows', async () => {
    await assert.rejects(
      managedSpan(ON, 'fails', async () => {
        await tick();
        throw new Error('model unreachable');
      }),
      /model unreachable/,
    );
    const [span] = tracing.spans();
    assert.equal(span?.status.code, SpanStatusCode.ERROR);
    assert.equal(span?.status.message, 'model unreachable');
    assert.equal(span?.events[0]?.name, 'exception');
  });

  it('records a synchronous throw and still ends the span', () => {
    assert.throws(
      () =>
        managedSpan(ON, 'sync-fail', () => {
          throw new TypeError('bad');
        }),
      TypeError,
    );
    assert.equal(tracing.spans()[0]?.status.code, SpanStatusCode.ERROR);
  });

  it('traceFn checks the gate at call time and preserves arguments, this and results', async () => {
    const add = traceFn(ON, 'add')(async (a: number, b: number) => a + b);
    assert.equal(await add(2, 3), 5);
    setEnabledSpanGroups([]);
    assert.equal(await add(1, 1), 2);
    assert.deepEqual(
      tracing.spans().map((s) => s.name),
      ['add'],
    );
    const obj = {
      base: 10,
      get: traceFn(
        ON,
        'get',
      )(function (this: { base: number }, n: number) {
        return this.base + n;
      }),
    };
    assert.equal(obj.get(1), 11);
  });

  it('spanCm opens a span regardless of groups', () => {
    setEnabledSpanGroups([]);
    spanCm('always', () => undefined, { a: 1 });
    assert.deepEqual(
      tracing.spans().map((s) => s.name),
      ['always'],
    );
  });

  it('startGroupSpan starts a span of the given kind that the caller ends, or NOOP_SPAN when disabled', () => {
    const span = startGroupSpan(ON, 'HTTP POST', { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST' } });
    assert.equal(tracing.spans().length, 0);
    span.end();
    assert.equal(tracing.spans()[0]?.kind, SpanKind.CLIENT);
    assert.equal(startGroupSpan(OFF, 'x', { kind: SpanKind.SERVER }), NOOP_SPAN);
  });

  it('emitSpan emits a finished span with exact timestamps under the given parent', () => {
    const root = trace.getTracer('t').startSpan('root');
    const span = emitSpan('replayed', '1732870000.000000001', 1732870001.5, { group: ON, parent: trace.setSpan(ROOT_CONTEXT, root) });
    root.end();
    assert.ok(span);
    const done = tracing.spans().find((s) => s.name === 'replayed');
    assert.deepEqual(done?.startTime, [1732870000, 1]);
    assert.deepEqual(done?.endTime, [1732870001, 500000000]);
    assert.equal(done?.parentSpanContext?.spanId, root.spanContext().spanId);
  });

  it('emitSpan clamps an inverted interval, marks it and warns', async () => {
    const warnings = await captureWarnings();
    emitSpan('skewed', 10.5, 10.25);
    await warnings.stop();
    const [span] = tracing.spans();
    assert.deepEqual(span?.endTime, span?.startTime);
    assert.equal(span?.attributes['inverted.skew'], true);
    assert.equal(span?.attributes['inverted.delta_seconds'], '0.25');
    assert.deepEqual(warnings.codes(), ['LENS_W008']);
  });

  it('emitSpan returns undefined before validating when its group is disabled, and rejects bad timestamps otherwise', () => {
    assert.equal(emitSpan('x', 'garbage', 'more garbage', { group: OFF }), undefined);
    assert.throws(() => emitSpan('x', 'garbage', 1), RangeError);
    assert.throws(() => emitSpan('x', Number.NaN, 1), RangeError);
  });

  it('injects and extracts W3C trace context and baggage across a carrier', () => {
    managedSpan(ON, 'client', () => {
      const headers: Record<string, string> = {};
      injectContext(headers);
      assert.match(headers.traceparent ?? '', /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const remote = extractContext(headers, ROOT_CONTEXT);
      managedSpan(ON, 'server', () => undefined, undefined, { parent: remote, kind: SpanKind.SERVER });
    });
    const client = tracing.spans().find((s) => s.name === 'client');
    const server = tracing.spans().find((s) => s.name === 'server');
    assert.equal(server?.parentSpanContext?.spanId, client?.spanContext().spanId);
    assert.equal(server?.parentSpanContext?.isRemote, true);
  });

  it('starts a fresh trace when the incoming traceparent is garbage', () => {
    const remote = extractContext({ traceparent: 'zz-not-a-traceparent' }, ROOT_CONTEXT);
    managedSpan(ON, 'server', () => undefined, undefined, { parent: remote });
    assert.equal(tracing.spans()[0]?.parentSpanContext, undefined);
  });
});
