import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readSpans } from '../src/read/read-spans.js';
import { toOtlpJsonLines } from '../src/write/otlp-json.js';
import { convert } from '../src/commands/convert.js';
import { rolloutSpans, tempDir, writeRunLogs } from './support/fixtures.js';
import { BIG_RUN_SPANS_PER_ROLLOUT, FAIL_EVERY, writeBigRun } from '../../../bench/support/big-run.js';
import type { SpanRecord } from '../src/span-record.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

function comparable(s: SpanRecord) {
  const { source: _source, resource, ...rest } = s;
  return { ...rest, resource: resource.attributes };
}

describe('convert to OTLP/JSON', () => {
  it('writes one request per resource with hex ids, string nanos and int enums', async () => {
    const d = writeRunLogs(rolloutSpans({ rolloutId: 'rt' }));
    cleanups.push(d.cleanup);
    const { spans } = await readSpans([d.dir]);
    const lines = [...toOtlpJsonLines(spans)];
    assert.equal(lines.length, 3);
    const req = JSON.parse(lines[0]!);
    const span = req.resourceSpans[0].scopeSpans[0].spans[0];
    assert.match(span.traceId, /^[0-9a-f]{32}$/);
    assert.equal(typeof span.startTimeUnixNano, 'string');
    assert.equal(typeof span.kind, 'number');
    assert.equal(typeof span.status.code, 'number');
    assert.equal(req.resourceSpans[0].scopeSpans[0].scope.name, 'nemo.gym');
  });

  it('round-trips through our own reader', async () => {
    const rollout = rolloutSpans({ rolloutId: 'rt2' });
    rollout[4]!.events = [{ name: 'gym.http.retry', time: '2026-01-01T00:00:00.5Z', attributes: { attempt: 1 } }];
    rollout[3]!.status = { code: 'ERROR', message: 'overloaded' };
    const d = writeRunLogs(rollout);
    cleanups.push(d.cleanup);
    const out = tempDir();
    cleanups.push(out.cleanup);
    const errors: string[] = [];
    const code = await convert({ paths: [d.dir], to: 'otlp-json', out: out.path('trace.otlp.jsonl') }, { write: () => {}, error: (t) => void errors.push(t) });
    assert.equal(code, 0);
    assert.match(errors.join(''), /wrote 10 spans in 3 lines/);
    const before = (await readSpans([d.dir])).spans.map(comparable);
    const after_ = (await readSpans([out.path('trace.otlp.jsonl')])).spans.map(comparable);
    const key = (s: { spanId: string }) => s.spanId;
    assert.deepEqual(
      after_.sort((a, b) => key(a).localeCompare(key(b))),
      before.sort((a, b) => key(a).localeCompare(key(b))),
    );
    assert.equal(readFileSync(out.path('trace.otlp.jsonl'), 'utf8').trim().split('\n').length, 3);
  });

  it('converts a run read in several batches: every span once, ids and times kept', async () => {
    const rollouts = 3000;
    const d = tempDir();
    cleanups.push(d.cleanup);
    await writeBigRun(d.dir, rollouts);
    const saved = process.env['GYM_TRACE_BATCH_MIB'];
    process.env['GYM_TRACE_BATCH_MIB'] = '2'; // the run is about 11 MiB: several batches
    const errors: string[] = [];
    try {
      assert.equal(await convert({ paths: [d.path('run.log')], to: 'otlp-json', out: d.path('out.otlp.jsonl') }, { write: () => {}, error: (t) => void errors.push(t) }), 0, errors.join(''));
    } finally {
      if (saved === undefined) delete process.env['GYM_TRACE_BATCH_MIB'];
      else process.env['GYM_TRACE_BATCH_MIB'] = saved;
    }
    const failed = Math.ceil(rollouts / FAIL_EVERY);
    const expected = 1 + rollouts * BIG_RUN_SPANS_PER_ROLLOUT - failed;
    assert.match(errors.join(''), new RegExp(`wrote ${expected} spans in \\d+ lines`));
    const lines = readFileSync(d.path('out.otlp.jsonl'), 'utf8').trim().split('\n').length;
    assert.ok(lines > 3, `${lines} lines: one request per resource (three services) in each of several batches`);
    const before = (await readSpans([d.path('run.log')])).spans.map(comparable);
    const after_ = (await readSpans([d.path('out.otlp.jsonl')])).spans.map(comparable);
    const key = (s: { spanId: string }) => s.spanId;
    assert.equal(after_.length, expected);
    assert.deepEqual(
      after_.sort((a, b) => key(a).localeCompare(key(b))),
      before.sort((a, b) => key(a).localeCompare(key(b))),
    );
  });
});
