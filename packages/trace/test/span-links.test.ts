// Span links, as gym writes them between a rollout's trace and its run's `gym.job`: read from the
// console record and from OTLP/JSON, kept by the store through either conversion path, queried by
// `gym trace sql`, and sent on by `gym trace push`.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { push } from '../src/commands/push.js';
import { show } from '../src/commands/show.js';
import { sql } from '../src/commands/sql.js';
import { readSpans } from '../src/read/read-spans.js';
import { startOtlpReceiver } from '../src/receive/receiver.js';
import type { SpanRecord } from '../src/span-record.js';
import { capture } from './support/capture.js';
import { bare, linkedRolloutSpans, nextId, tempDir, writeRunLogs } from './support/fixtures.js';

const cleanups: Array<() => void | Promise<void>> = [];
after(async () => {
  for (const c of cleanups) await c();
});

function linkedRun(): { dir: string; job: { traceId: string; spanId: string } } {
  const spans = linkedRolloutSpans(['0-0', '1-0']);
  const d = writeRunLogs(spans);
  cleanups.push(d.cleanup);
  return { dir: d.dir, job: { traceId: spans[0]!.traceId, spanId: spans[0]!.spanId } };
}

const linksOf = (spans: SpanRecord[]) =>
  spans
    .filter((s) => s.links !== undefined)
    .map((s) => [s.attributes['nemo.gym.rollout.id'], s.links!.map((l) => [l.traceId, l.spanId])])
    .sort();

describe('span links', () => {
  it("are read from the console record: each rollout's first span links to the job", async () => {
    const { dir, job } = linkedRun();
    const { spans } = await readSpans([dir]);
    assert.deepEqual(linksOf(spans), [
      ['0-0', [[job.traceId, job.spanId]]],
      ['1-0', [[job.traceId, job.spanId]]],
    ]);
  });

  it('are read from OTLP/JSON (base64 ids too) and kept by the store, as gym trace sql shows', async () => {
    const d = tempDir();
    cleanups.push(d.cleanup);
    const [jobTrace, jobSpan, trace, span] = [nextId(16), nextId(8), nextId(16), nextId(8)];
    const request = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'nemo-gym/orchestrator' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId: Buffer.from(trace, 'hex').toString('base64'),
                  spanId: span,
                  name: 'HTTP POST',
                  kind: 3,
                  startTimeUnixNano: '1767225600000000000',
                  endTimeUnixNano: '1767225601000000000',
                  links: [{ traceId: Buffer.from(jobTrace, 'hex').toString('base64'), spanId: jobSpan, attributes: [{ key: 'why', value: { stringValue: 'job' } }] }],
                },
              ],
            },
          ],
        },
      ],
    };
    writeFileSync(d.path('otlp.json'), `${JSON.stringify(request)}\n`);
    const { spans } = await readSpans([d.dir]);
    assert.deepEqual(spans[0]!.links, [{ traceId: jobTrace, spanId: jobSpan, attributes: { why: 'job' } }]);
    // the OTLP/JSON line is converted by the JavaScript reader; the console lines by DuckDB's fast path
    const { dir, job } = linkedRun();
    for (const [input, expected] of [
      [d.dir, [{ trace_id: jobTrace, span_id: jobSpan, attributes: { why: 'job' } }]],
      [dir, [{ trace_id: job.traceId, span_id: job.spanId, attributes: {} }]],
    ] as const) {
      const c = capture();
      assert.equal(await sql({ paths: [input], query: 'SELECT links FROM spans WHERE json_array_length(links) > 0 LIMIT 1', format: 'json' }, c), 0, c.err);
      const [row] = JSON.parse(c.out) as Array<{ links: unknown }>;
      const links = (typeof row!.links === 'string' ? JSON.parse(row!.links) : row!.links) as Array<Record<string, unknown>>;
      assert.deepEqual(
        links.map((l) => ({ trace_id: String(l['trace_id']).toLowerCase(), span_id: l['span_id'], attributes: l['attributes'] })),
        expected.map((l) => ({ ...l, trace_id: l.trace_id.toLowerCase() })),
      );
    }
  });

  it('are sent on by push: the collector gets each rollout root linked to the job', async () => {
    const { dir, job } = linkedRun();
    const out = tempDir();
    const rx = await startOtlpReceiver({ outDir: out.dir, grpcPort: 0, httpPort: 0 });
    cleanups.push(async () => {
      await rx.close();
      out.cleanup();
    });
    const c = capture();
    assert.equal(await push({ paths: [dir], endpoint: `http://127.0.0.1:${rx.httpPort}` }, c), 0, c.err);
    await rx.close();
    const { spans } = await readSpans([out.dir]);
    assert.deepEqual(linksOf(spans), [
      ['0-0', [[job.traceId, job.spanId]]],
      ['1-0', [[job.traceId, job.spanId]]],
    ]);
  });

  it('name no job on traces that are not one (show --slowest over traces without rollouts)', async () => {
    const d = writeRunLogs([bare('step', 'a'.repeat(16), null, 0, 100, { traceId: 'd'.repeat(32) }), bare('other', 'b'.repeat(16), null, 0, 50, { traceId: 'e'.repeat(32) })]);
    cleanups.push(d.cleanup);
    const c = capture();
    assert.equal(await show({ paths: [d.dir], slowest: 2 }, c), 0, c.err);
    assert.equal(c.out.match(/^trace /gm)?.length, 2);
    assert.doesNotMatch(c.out, /gym\.job of/);
  });

  it('group a run of one trace per rollout under its job: the list names the job, show --trace draws it with its rollout count', async () => {
    const { dir, job } = linkedRun();
    const list = capture();
    assert.equal(await show({ paths: [dir] }, list), 0, list.err);
    assert.match(list.out, /^0-0 /m);
    assert.match(list.out, /^1-0 /m);
    assert.match(list.out, new RegExp(`The run's job \\(gym\\.job, 2 rollouts\\): --trace ${job.traceId}\\.`));
    const shown = capture();
    assert.equal(await show({ paths: [dir], trace: job.traceId }, shown), 0, shown.err);
    assert.match(shown.out, new RegExp(`^trace ${job.traceId} .* gym\\.job of 2 rollouts$`, 'm'));
    assert.match(shown.out, /^\* gym\.job /m);
  });
});
