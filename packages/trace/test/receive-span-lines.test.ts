// The receiver's span lines are built as strings: every field must come out as the documented
// console record, escaped and ordered as `JSON.stringify` would write it, whatever the sender put in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spanRecordsOf } from '../src/receive/span-records.js';
import { unixTimeOf } from '../src/receive/otlp-shape.js';

const TRACE_B64 = Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex').toString('base64');
const SPAN_B64 = Buffer.from('b7ad6b7169203331', 'hex').toString('base64');

// a decoded ExportTraceServiceRequest in the receiver's shape (longs as strings, bytes as base64)
const REQUEST = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent "one"' } }] },
      scopeSpans: [
        {
          scope: { name: 'gym', version: '1.0.0' },
          spans: [
            {
              traceId: TRACE_B64,
              spanId: SPAN_B64,
              parentSpanId: '',
              name: 'POST "/run"\n\u2028ünï',
              kind: 2,
              startTimeUnixNano: '1764556800999999999',
              endTimeUnixNano: '1764556801000000999',
              status: { code: 2, message: 'boom: "quoted" \\ back' },
              attributes: [
                { key: 'big', value: { intValue: '9007199254740993' } },
                { key: 'small', value: { intValue: '7' } },
                { key: 'ratio', value: { doubleValue: 0.25 } },
                { key: 'ok', value: { boolValue: false } },
                { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: 'b\u0000' }] } } },
              ],
              events: [{ name: 'gym.http.retry', timeUnixNano: '1764556801000000000', attributes: [{ key: 'attempt', value: { intValue: '1' } }] }],
              links: [{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', attributes: [] }],
            },
            // hex ids, a kind by name, no end and no status: an unfinished span as a sender may send it
            {
              traceId: '0af7651916cd43dd8448eb211c80319c',
              spanId: '00f067aa0ba902b7',
              parentSpanId: 'b7ad6b7169203331',
              name: 'child',
              kind: 'SPAN_KIND_SERVER',
              startTimeUnixNano: 1764556800000000000,
            },
            // unusable ids: not written
            { traceId: '', spanId: '00f067aa0ba902b7', name: 'lost' },
          ],
        },
      ],
    },
  ],
};

describe('receiver span lines', () => {
  const { records, rejected } = spanRecordsOf(REQUEST);

  it('writes every field of a span as the console record, escaped like JSON.stringify', () => {
    assert.equal(rejected, 1);
    assert.equal(records.length, 2);
    const line = records[0]!.line;
    assert.equal(records[0]!.service, 'agent "one"');
    // compact and canonical: what JSON.stringify writes for the same object
    assert.equal(JSON.stringify(JSON.parse(line)), line);
    assert.deepEqual(JSON.parse(line), {
      type: 'span',
      trace_id: '0af7651916cd43dd8448eb211c80319c',
      span_id: 'b7ad6b7169203331',
      parent_span_id: null,
      name: 'POST "/run"\n\u2028ünï',
      kind: 'SERVER',
      start_time: '2025-12-01T02:40:00.999999999Z',
      end_time: '2025-12-01T02:40:01.000000999Z',
      start_time_unix_nano: '1764556800999999999',
      end_time_unix_nano: '1764556801000000999',
      duration_ms: 0.001,
      status: { code: 'ERROR', message: 'boom: "quoted" \\ back' },
      attributes: { big: '9007199254740993', small: 7, ratio: 0.25, ok: false, tags: ['a', 'b\u0000'] },
      events: [{ name: 'gym.http.retry', time: '2025-12-01T02:40:01.000000000Z', attributes: { attempt: 1 } }],
      links: [{ trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331', attributes: {} }],
      resource: { attributes: { 'service.name': 'agent "one"' } },
      scope: { name: 'gym', version: '1.0.0' },
    });
  });

  it('writes a span without an end with the epoch as its end and no duration', () => {
    const record = JSON.parse(records[1]!.line) as Record<string, unknown>;
    assert.equal(records[1]!.line, JSON.stringify(record));
    assert.equal(record['parent_span_id'], 'b7ad6b7169203331');
    assert.equal(record['kind'], 'SERVER');
    assert.equal(record['start_time_unix_nano'], '1764556800000000000');
    assert.equal(record['end_time'], '1970-01-01T00:00:00.000000000Z');
    assert.equal(record['duration_ms'], 0);
    assert.deepEqual(record['status'], { code: 'UNSET', message: null });
    assert.deepEqual([record['attributes'], record['events'], record['links']], [{}, [], []]);
  });

  it('reads a time the same from a canonical string, padded digits, a number and a bigint', () => {
    const canonical = unixTimeOf('1764556800123456789');
    assert.deepEqual(canonical, { iso: '2025-12-01T02:40:00.123456789Z', nanos: '1764556800123456789', seconds: 1764556800, fraction: 123456789 });
    assert.deepEqual(unixTimeOf('0001764556800123456789'), canonical);
    assert.deepEqual(unixTimeOf(1764556800123456789n), canonical);
    assert.equal(unixTimeOf(1764556800000).iso, '1970-01-01T00:29:24.556800000Z');
    for (const absent of [undefined, null, '', 'soon', -1, '0']) assert.deepEqual(unixTimeOf(absent), { iso: '1970-01-01T00:00:00.000000000Z', nanos: '0', seconds: 0, fraction: 0 });
  });
});
