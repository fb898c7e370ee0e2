// The receiver reads OTLP/protobuf spans from their wire bytes. For any request protobufjs can
// decode, those lines must be the ones the object path (protobufjs, then `spanRecordsOf`) writes;
// for bytes it cannot, the wire reader must say so with a WireError, never crash or hang.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { loadOtlpTypes, TO_OBJECT_OPTIONS } from '../src/receive/otlp-protos.js';
import type { Obj } from '../src/receive/otlp-shape.js';
import { WireError } from '../src/receive/protobuf-wire.js';
import { spanRecordsOf } from '../src/receive/span-records.js';
import { spanRecordsOfWire } from '../src/receive/trace-wire.js';

const Request = loadOtlpTypes().request('traces');

const bytesOf = (hex: string) => Buffer.from(hex, 'hex');
const TRACE = bytesOf('0af7651916cd43dd8448eb211c80319c');
const SPAN = bytesOf('b7ad6b7169203331');
const long = (decimal: string) => decimal; // protobufjs takes 64-bit values as decimal strings

function encode(request: Obj): Buffer {
  return Buffer.from(Request.encode(Request.fromObject(request)).finish());
}

function objectPath(bytes: Buffer) {
  return spanRecordsOf(Request.toObject(Request.decode(bytes), TO_OBJECT_OPTIONS));
}

function assertSameLines(bytes: Buffer): void {
  const wire = spanRecordsOfWire(bytes);
  assert.deepEqual(wire, objectPath(bytes));
}

// every shape of value and id the object path treats specially
const EDGES: Obj = {
  resourceSpans: [
    {
      resource: {
        attributes: [
          { key: 'service.name', value: { stringValue: 'nemo-gym/agent "x"' } },
          { key: 'host.pid', value: { intValue: long('4242') } },
        ],
      },
      scopeSpans: [
        {
          scope: { name: '@gym/lens', version: '0.1.0' },
          spans: [
            {
              traceId: TRACE,
              spanId: SPAN,
              name: 'POST "/run"\n\u2028ünï',
              kind: 2,
              startTimeUnixNano: long('1764556800999999999'),
              endTimeUnixNano: long('1764556801000000999'),
              status: { code: 2, message: 'boom: "quoted" \\ back' },
              attributes: [
                { key: 'big', value: { intValue: long('9007199254740993') } },
                { key: 'negative', value: { intValue: long('-12') } },
                { key: 'most negative', value: { intValue: long('-9223372036854775808') } },
                { key: 'small', value: { intValue: long('7') } },
                { key: 'ratio', value: { doubleValue: 0.25 } },
                { key: 'nan', value: { doubleValue: NaN } },
                { key: 'ok', value: { boolValue: false } },
                { key: 'yes', value: { boolValue: true } },
                { key: 'raw', value: { bytesValue: bytesOf('00ff10') } },
                { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: long('3') }, {}] } } },
                { key: 'empty list', value: { arrayValue: {} } },
                {
                  key: 'nested',
                  value: { kvlistValue: { values: [{ key: 'inner', value: { arrayValue: { values: [{ kvlistValue: { values: [{ key: 'deep', value: { boolValue: true } }] } }] } } }] } },
                },
                { key: 'unset', value: {} },
                { key: 'no value' },
                { key: '', value: { stringValue: 'empty key' } },
                { value: { stringValue: 'no key: skipped' } },
                { key: '10', value: { stringValue: 'an index-like key sorts first in JSON' } },
                { key: 'small', value: { stringValue: 'a repeated key keeps its place, takes the last value' } },
              ],
              events: [{ name: 'gym.http.retry', timeUnixNano: long('1764556801000000000'), attributes: [{ key: 'attempt', value: { intValue: long('1') } }] }, { attributes: [] }],
              links: [{ traceId: TRACE, spanId: SPAN, attributes: [{ key: 'why', value: { stringValue: 'follows' } }] }, { traceId: bytesOf('0102') }],
            },
            // no end, no status, no kind, a parent: an unfinished span
            { traceId: TRACE, spanId: bytesOf('00f067aa0ba902b7'), parentSpanId: SPAN, name: 'child', startTimeUnixNano: long('1764556800000000000') },
            // times past 2^53 ns and exactly the epoch
            { traceId: TRACE, spanId: bytesOf('00f067aa0ba902b8'), startTimeUnixNano: long('0'), endTimeUnixNano: long('18446744073709551615') },
            // unusable ids: counted, not written
            { spanId: SPAN, name: 'no trace id' },
            { traceId: bytesOf('00000000000000000000000000000000'), spanId: SPAN, name: 'zero trace id' },
            { traceId: TRACE, spanId: bytesOf('0000000000000000'), name: 'zero span id' },
            { traceId: TRACE, spanId: bytesOf('b7ad6b71'), name: 'short span id' },
            // an id of the wrong length whose base64 text begins with 0x and reads as short hex
            { traceId: TRACE, spanId: Buffer.from('0xAB12cd', 'base64'), parentSpanId: bytesOf('01'), name: 'odd ids' },
          ],
        },
        { scope: { name: 'no spans' } },
        { spans: [{ traceId: TRACE, spanId: SPAN, name: 'no scope', kind: 99 }] },
      ],
    },
    { scopeSpans: [{ scope: { name: 's', version: '' }, spans: [{ traceId: TRACE, spanId: SPAN, name: 'no resource', kind: -1, status: { code: 1 } }] }] },
    // the pre-1.0 form, and both forms at once (only the current one is read)
    { resource: { attributes: [] }, instrumentationLibrarySpans: [{ instrumentationLibrary: { name: 'old', version: '0.9' }, spans: [{ traceId: TRACE, spanId: SPAN, name: 'legacy' }] }] },
    {
      scopeSpans: [{ scope: { name: 'current' }, spans: [{ traceId: TRACE, spanId: SPAN, name: 'current form' }] }],
      instrumentationLibrarySpans: [{ instrumentationLibrary: { name: 'old' }, spans: [{ traceId: TRACE, spanId: SPAN, name: 'ignored legacy' }] }],
    },
  ],
};

describe('OTLP/protobuf spans read from the wire', () => {
  it('writes the lines of the object path for every edge of values, ids, times and scopes', () => {
    const bytes = encode(EDGES);
    const wire = spanRecordsOfWire(bytes);
    assert.deepEqual(wire, objectPath(bytes));
    // the request above holds 8 usable spans and 4 unusable ones: the comparison is not of two empty lists
    assert.equal(wire.records.length, 8);
    assert.equal(wire.rejected, 4);
    assert.ok(wire.records.some((r) => r.line.includes('"most negative":"-9223372036854775808"')));
  });

  it('writes the lines of the object path for what the OpenTelemetry SDK exports', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'nemo-gym/simple_agent', 'service.instance.id': 'i-1' }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer('@gym/lens', '1.2.3');
    tracer.startActiveSpan('POST /run', { kind: SpanKind.SERVER, attributes: { 'http.route': '/run', 'nemo.gym.rollout.id': 'r-1' } }, (root) => {
      const child = tracer.startSpan('HTTP POST', { kind: SpanKind.CLIENT, attributes: { 'url.full': 'http://127.0.0.1:1/v1/responses', attempt: 1, ratio: 0.5, flags: [true, false] } });
      child.addEvent('gym.http.retry', { attempt: 2 });
      child.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream 503' });
      child.end();
      root.addLink({ context: child.spanContext(), attributes: { kind: 'retry' } });
      root.end();
    });
    await provider.forceFlush();
    const bytes = Buffer.from(ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans())!);
    const wire = spanRecordsOfWire(bytes);
    assert.equal(wire.records.length, 2);
    assert.deepEqual(wire, objectPath(bytes));
    await provider.shutdown();
  });

  it('reads a resource sent after its spans, and fields it does not know', () => {
    const spans = encode({ resourceSpans: [{ scopeSpans: [{ scope: { name: 'late' }, spans: [{ traceId: TRACE, spanId: SPAN, name: 'x' }] }] }] });
    const resource = encode({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'late-resource' } }] } }] });
    // inside one ResourceSpans: its scope spans, then its resource, then an unknown field 99 (varint)
    const inner = Buffer.concat([firstFieldValue(spans), firstFieldValue(resource), Buffer.from([0x98, 0x06, 0x01])]);
    const bytes = field(1, inner);
    assertSameLines(bytes);
    assert.equal(spanRecordsOfWire(bytes).records[0]!.service, 'late-resource');
  });

  it('throws a WireError exactly where protobufjs cannot decode a cut request', () => {
    const bytes = encode(EDGES);
    let decoded = 0;
    for (let n = 0; n < bytes.length; n++) {
      const cut = bytes.subarray(0, n);
      let expected: ReturnType<typeof objectPath> | undefined;
      try {
        expected = objectPath(cut);
      } catch {
        expected = undefined;
      }
      if (expected === undefined) assert.throws(() => spanRecordsOfWire(cut), WireError, `cut at ${n}`);
      else {
        decoded++;
        assert.deepEqual(spanRecordsOfWire(cut), expected, `cut at ${n}`);
      }
    }
    assert.ok(decoded >= 2, 'cuts at message boundaries decode');
  });

  it('never fails with anything but a WireError on damaged bytes', () => {
    const bytes = encode(EDGES);
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    for (let round = 0; round < 3000; round++) {
      const damaged = Buffer.from(bytes);
      for (let k = 0; k < 1 + Math.floor(random() * 4); k++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
      try {
        spanRecordsOfWire(damaged);
      } catch (err) {
        assert.ok(err instanceof WireError, `round ${round}: ${String(err)}`);
      }
    }
  });

  it('refuses attribute values nested past its depth limit', () => {
    // built by hand: protobufjs itself refuses to encode this deep a value
    let value = field(1, Buffer.from('bottom')); // AnyValue.string_value
    for (let i = 0; i < 80; i++) value = field(5, field(1, value)); // AnyValue.array_value → ArrayValue.values
    const span = Buffer.concat([field(1, TRACE), field(2, SPAN), field(9, Buffer.concat([field(1, Buffer.from('deep')), field(2, value)]))]);
    const bytes = field(1, field(2, field(2, span))); // request → ResourceSpans.scope_spans → ScopeSpans.spans
    assert.throws(
      () => spanRecordsOfWire(bytes),
      (err) => err instanceof WireError && /nested more than 64 deep/.test(err.message),
    );
  });
});

/** The value bytes of the first (length-delimited, one-byte-tag) field of `message`. */
function firstFieldValue(message: Buffer): Buffer {
  let pos = 1;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    const b = message[pos++]!;
    length |= (b & 0x7f) << shift;
    if (b < 0x80) break;
  }
  return message.subarray(pos, pos + length);
}

/** A length-delimited field `n` holding `value`. */
function field(n: number, value: Buffer): Buffer {
  return Buffer.concat([varint((n << 3) | 2), varint(value.length), value]);
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}
