import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readSpans } from '../src/read/read-spans.js';
import { TraceUserError } from '../src/errors.js';
import { BASE_NS, consoleLine, rolloutSpans, tempDir, writeRunLogs } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

function dir(files: Record<string, string>) {
  const d = tempDir(files);
  cleanups.push(d.cleanup);
  return d;
}

const PY_PRETTY = `{
    "name": "POST /verify",
    "context": {
        "trace_id": "0x4bf92f3577b34da6a3ce929d0e0e4736",
        "span_id": "0x00f067aa0ba902b7",
        "trace_state": "[]"
    },
    "kind": "SpanKind.SERVER",
    "parent_id": "0x1111111111111111",
    "start_time": "2026-01-01T00:00:00.100000Z",
    "end_time": "2026-01-01T00:00:00.350500Z",
    "status": {
        "status_code": "ERROR",
        "description": "boom {not a brace}"
    },
    "attributes": {
        "http.route": "/verify"
    },
    "events": [
        {
            "name": "exception",
            "timestamp": "2026-01-01T00:00:00.300000Z",
            "attributes": {"exception.type": "ValueError"}
        }
    ],
    "links": [],
    "resource": {
        "attributes": {
            "service.name": "nemo-gym/weather"
        },
        "schema_url": ""
    }
}`;

const PY_COMPACT = JSON.stringify({
  name: 'gym.verify',
  context: { trace_id: '0x4bf92f3577b34da6a3ce929d0e0e4736', span_id: '0x2222222222222222', trace_state: '[]' },
  kind: 'SpanKind.INTERNAL',
  parent_id: '0x00f067aa0ba902b7',
  start_time: '2026-01-01T00:00:00.110000Z',
  end_time: '2026-01-01T00:00:00.340000Z',
  status: { status_code: 'UNSET' },
  attributes: { 'gym.verify.reward': 1.0 },
  events: [],
  links: [],
  resource: { attributes: { 'service.name': 'nemo-gym/weather' }, schema_url: '' },
});

function otlpLine(ids: { trace: string; span: string; parent?: string }): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'nemo-gym/policy_model' } }] },
        scopeSpans: [
          {
            scope: { name: 'nemo.gym' },
            spans: [
              {
                traceId: ids.trace,
                spanId: ids.span,
                parentSpanId: ids.parent ?? '',
                name: 'POST /v1/responses',
                kind: 2,
                startTimeUnixNano: '1767225600010000000',
                endTimeUnixNano: '1767225600600000000',
                attributes: [
                  { key: 'http.route', value: { stringValue: '/v1/responses' } },
                  { key: 'tokens', value: { intValue: '120' } },
                  { key: 'ratio', value: { doubleValue: 0.5 } },
                  { key: 'ok', value: { boolValue: true } },
                  { key: 'list', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: 2 }] } } },
                ],
                status: { code: 2, message: 'bad' },
              },
            ],
          },
        ],
      },
    ],
  });
}

describe('readSpans', () => {
  it('reads console lines mixed with log text and pino lines, counting what it skips', async () => {
    const d = writeRunLogs(rolloutSpans({ rolloutId: '0-0' }));
    cleanups.push(d.cleanup);
    const { spans, stats } = await readSpans([d.dir]);
    assert.equal(spans.length, 10);
    assert.equal(stats.files, 3);
    assert.equal(stats.skippedLines, 3 * 4);
    assert.equal(stats.malformedLines, 0);
    assert.equal(stats.formats.console, 10);
    const model = spans.find((s) => s.name === 'gym.model.responses')!;
    assert.equal(model.service, 'nemo-gym/policy_model');
    assert.equal(model.startNs, BASE_NS + 12_000_000n);
    assert.equal(model.durationMs, 586);
    assert.equal(model.source.file, d.path('model.log'));
    assert.equal(model.source.line, 4); // after a log line, a pino line and the SERVER span
  });

  it('survives garbage and reports malformed lines with file:line examples', async () => {
    const good = consoleLine(rolloutSpans({ rolloutId: 'g' })[0]!);
    const d = dir({
      'x.jsonl': [
        '\u0000\u0001binary',
        '{"type":"span",',
        'not json {"a":',
        '{broken}',
        good,
        '[1,2,3]',
        '{"type":"span","trace_id":"zz","span_id":"0000000000000001","name":"x"}',
        good.slice(0, 40),
      ].join('\n'),
    });
    const { spans, stats } = await readSpans([d.path('x.jsonl')]);
    assert.equal(spans.length, 1);
    assert.equal(stats.linesRead, 8);
    assert.ok(stats.malformedLines >= 3);
    assert.deepEqual(stats.malformedExamples.map((e) => e.line).slice(0, 2), [2, 4]);
    assert.ok(stats.malformedExamples.some((e) => e.reason === 'invalid trace_id' && e.line === 7));
    assert.ok(stats.malformedExamples.every((e) => e.file === d.path('x.jsonl')));
  });

  it('reads the Python SDK shape, pretty-printed and compact', async () => {
    const d = dir({ 'py.log': `INFO starting\n${PY_PRETTY}\nINFO between\n${PY_COMPACT}\n` });
    const { spans, stats } = await readSpans([d.dir]);
    assert.equal(stats.formats.python, 2);
    assert.equal(stats.malformedLines, 0);
    const server = spans.find((s) => s.name === 'POST /verify')!;
    assert.equal(server.traceId, '4bf92f3577b34da6a3ce929d0e0e4736');
    assert.equal(server.spanId, '00f067aa0ba902b7');
    assert.equal(server.parentSpanId, '1111111111111111');
    assert.equal(server.kind, 'SERVER');
    assert.deepEqual(server.status, { code: 'ERROR', message: 'boom {not a brace}' });
    assert.equal(server.durationMs, 250.5);
    assert.equal(server.source.line, 2);
    assert.equal(server.events[0]!.name, 'exception');
    const verify = spans.find((s) => s.name === 'gym.verify')!;
    assert.equal(verify.parentSpanId, server.spanId);
    assert.equal(verify.source.line, PY_PRETTY.split('\n').length + 3);
  });

  it('marks a span without an end time as never ended', async () => {
    const open = PY_COMPACT.replace('"2026-01-01T00:00:00.340000Z"', 'null');
    const d = dir({ 'open.log': open + '\n' });
    const { spans } = await readSpans([d.dir]);
    assert.equal(spans[0]!.ended, false);
    assert.equal(spans[0]!.endNs, spans[0]!.startNs);
    assert.equal(spans[0]!.durationMs, 0);
  });

  it('reports a pretty-printed object cut off by a crash as malformed and reads on', async () => {
    const cut = PY_PRETTY.split('\n').slice(0, 10).join('\n');
    const d = dir({ 'py.log': `${cut}\n${PY_COMPACT}\n` });
    const { spans, stats } = await readSpans([d.dir]);
    assert.equal(spans.length, 1);
    assert.equal(stats.malformedLines, 1);
    assert.equal(stats.malformedExamples[0]!.line, 1);
  });

  it('reads OTLP/JSON with hex ids and with base64 ids', async () => {
    const trace = '5b8efff798038103d269b633813fc60c';
    const span = 'eee19b7ec3c1b174';
    const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
    const d = dir({ 'hex.json': otlpLine({ trace, span }) + '\n', 'b64.json': otlpLine({ trace: b64(trace), span: b64('eee19b7ec3c1b175'), parent: b64(span) }) + '\n' });
    const { spans, stats } = await readSpans([d.dir]);
    assert.equal(stats.formats.otlp, 2);
    const [b, h] = [spans.find((s) => s.source.file.endsWith('b64.json'))!, spans.find((s) => s.source.file.endsWith('hex.json'))!];
    assert.equal(h.traceId, trace);
    assert.equal(h.parentSpanId, null);
    assert.equal(b.traceId, trace);
    assert.equal(b.spanId, 'eee19b7ec3c1b175');
    assert.equal(b.parentSpanId, span);
    assert.equal(h.kind, 'SERVER');
    assert.deepEqual(h.status, { code: 'ERROR', message: 'bad' });
    assert.deepEqual(h.attributes, { 'http.route': '/v1/responses', tokens: 120, ratio: 0.5, ok: true, list: ['a', 2] });
    assert.equal(h.service, 'nemo-gym/policy_model');
    assert.equal(h.durationMs, 590);
  });

  it('reads only telemetry extensions from directories, recursively', async () => {
    const line = consoleLine(rolloutSpans({ rolloutId: 'r' })[0]!) + '\n';
    const d = dir({ 'a/b/deep.jsonl': line, 'top.log': line, 'notes.txt': line, 'c/x.ndjson': line });
    const { stats } = await readSpans([d.dir]);
    assert.equal(stats.files, 3);
    assert.equal(stats.spans, 3);
  });

  it('throws a user error naming a missing path', async () => {
    await assert.rejects(readSpans(['/nonexistent/gym-trace-logs']), (err: unknown) => {
      assert.ok(err instanceof TraceUserError);
      assert.equal(err.code, 'GYM_TRACE_PATH_NOT_FOUND');
      assert.match(err.message, /nonexistent\/gym-trace-logs/);
      return true;
    });
  });
});

describe('line splitting', () => {
  it('keeps a record whole when an attribute holds U+2028 or U+2029 (readline would split it on Node 24)', async () => {
    const { forEachLine } = await import('../src/read/lines.js');
    const { Readable } = await import('node:stream');
    const lines: string[] = [];
    await forEachLine(Readable.from(['{"a":"x\u2028y\u2029z"}\r\n{"b"', ':1}\n', 'tail']), (l) => lines.push(l));
    assert.deepEqual(lines, ['{"a":"x\u2028y\u2029z"}', '{"b":1}', 'tail']);
  });
});
