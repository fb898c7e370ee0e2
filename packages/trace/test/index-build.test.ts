// The index build reads the logs as bytes: span lines are copied without being decoded, log lines
// skipped without being decoded, anything else decoded and parsed. Its partitions must not depend
// on where the reads cut the lines, and the answers read through it must be the one-read answers.
import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anomalies } from '../src/commands/anomalies.js';
import { BATCH_ENV } from '../src/commands/load-batches.js';
import { stats } from '../src/commands/stats.js';
import { buildPartitionsInWorker } from '../src/partition/build-in-worker.js';
import { setBuildChunkBytes } from '../src/partition/build-partitions.js';
import { openIndex } from '../src/partition/partition-index.js';
import { expandPaths } from '../src/read/expand-paths.js';
import { capture } from './support/capture.js';
import { AGENT, bare, consoleLine, defaultPresetSpans, MODEL, tempDir } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
afterEach(() => {
  setBuildChunkBytes();
  delete process.env[BATCH_ENV];
});

// Every kind of line the build meets, with CRLF endings in one file and no final newline.
function oddRun() {
  const spans = defaultPresetSpans(['0-0', '1-0', '2-0']);
  const lines = spans.map(consoleLine);
  const named = (name: string, id: string) => consoleLine(bare(name, id, null, 1, 2, { service: MODEL }));
  // keys in another order, and an upper-case id: not at the fixed offsets, so searched or parsed
  const reordered = (() => {
    const { type, span_id, trace_id, ...rest } = JSON.parse(named('reordered', '6666666666666666')) as Record<string, unknown>;
    return JSON.stringify({ span_id, type, trace_id, ...rest });
  })();
  const upper = named('upper-case id', '7777777777777777').replace('7777777777777777', 'ABCDEF7777777777');
  const python = JSON.stringify(
    {
      name: 'POST /verify',
      context: { trace_id: '0x4bf92f3577b34da6a3ce929d0e0e4736', span_id: '0x00f067aa0ba902b7' },
      kind: 'SpanKind.SERVER',
      parent_id: null,
      start_time: '2026-01-01T00:00:00.100000Z',
      end_time: '2026-01-01T00:00:00.350500Z',
      status: { status_code: 'OK' },
      attributes: {},
      events: [],
      links: [],
      resource: { attributes: { 'service.name': 'nemo-gym/py_tool' } },
    },
    null,
    2,
  );
  const d = tempDir({
    'agent.log': [
      'INFO:     Started server process [4242]',
      JSON.stringify({ level: 30, time: 1767225600000, msg: 'request {"span_id": not a span}', pid: 1 }),
      '',
      '   ',
      ...lines.slice(0, 10),
      `[agent] ${lines[10]!}`,
      named('naïve “quoted” \\"name\\" 名前 🚀', '1111111111111111'),
      named('x'.repeat(3000), '2222222222222222'),
      reordered,
      upper,
      python,
      '{"type":"span","trace_id":"zz","span_id":"0000000000000001","name":"x"}',
      '{"level":30,"msg":"cut off',
      ...lines.slice(11),
    ].join('\n'),
    'model.log': ['{"level":30,"msg":"hello"}', named('crlf span', '3333333333333333'), 'plain text { with a brace'].join('\r\n') + '\r\n',
    'late.log': consoleLine(bare('no newline at the end', '4444444444444444', null, 0, 5, { service: AGENT })),
  });
  cleanups.push(d.cleanup);
  return d;
}

function indexFiles(dir: string): Record<string, string> {
  const base = join(dir, '.gym-trace-index');
  const [key] = readdirSync(base);
  const out: Record<string, string> = {};
  for (const f of readdirSync(join(base, key!))) out[f] = readFileSync(join(base, key!, f), 'utf8');
  return out;
}

async function output(cmd: (c: ReturnType<typeof capture>) => Promise<number>): Promise<string> {
  const c = capture();
  assert.equal(await cmd(c), 0, c.err);
  return c.out;
}

describe('building the index from bytes', () => {
  it('writes the same partitions wherever the reads cut the lines', async () => {
    const d = oddRun();
    const built: Array<Record<string, string>> = [];
    for (const chunk of [1 << 20, 4096, 61, 7]) {
      rmSync(join(d.dir, '.gym-trace-index'), { recursive: true, force: true });
      setBuildChunkBytes(chunk);
      const index = await openIndex(await expandPaths([d.dir]), d.dir, { partitionTargetBytes: 2048, largeTraceSpans: 4 });
      assert.equal(index.built, true);
      built.push(indexFiles(d.dir));
    }
    for (const b of built.slice(1)) assert.deepEqual(b, built[0]);
    const parts = Object.entries(built[0]!)
      .filter(([f]) => f.endsWith('.part'))
      .map(([, t]) => t)
      .join('');
    // span lines are copied as they were written, unicode and escapes included
    assert.ok(parts.includes('naïve “quoted” \\\\\\"name\\\\\\" 名前 🚀'));
    assert.ok(parts.includes('"crlf span"') && !parts.includes('\r'));
    assert.ok(parts.includes('"no newline at the end"'));
    assert.ok(parts.includes('"reordered"') && parts.includes('"upper-case id"'));
  });

  it('writes the same index in a thread of its own, and hands back what failed there', async () => {
    const d = oddRun();
    const built: Array<Record<string, string>> = [];
    for (const buildInThread of [false, true]) {
      rmSync(join(d.dir, '.gym-trace-index'), { recursive: true, force: true });
      setBuildChunkBytes(61); // reaches the thread too
      const index = await openIndex(await expandPaths([d.dir]), d.dir, { partitionTargetBytes: 2048, largeTraceSpans: 4, buildInThread });
      assert.equal(index.built, true);
      built.push(indexFiles(d.dir));
    }
    assert.deepEqual(built[1], built[0]);
    const gone = join(d.dir, 'gone.log');
    await assert.rejects(buildPartitionsInWorker([{ path: gone, bytes: 100 }], join(d.dir, 'scratch'), { partitions: 1, largeTraceSpans: 4 }), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'ENOENT');
      assert.match(err.message, /gone\.log/);
      return true;
    });
  });

  it('gives the answers of one read (stats, anomalies, the read counters)', async () => {
    const d = oddRun();
    const whole = { stats: await output((c) => stats({ paths: [d.dir], format: 'json' }, c)), anomalies: await output((c) => anomalies({ paths: [d.dir], format: 'json' }, c)) };
    process.env[BATCH_ENV] = '0.004';
    setBuildChunkBytes(61);
    const parts = { stats: await output((c) => stats({ paths: [d.dir], format: 'json' }, c)), anomalies: await output((c) => anomalies({ paths: [d.dir], format: 'json' }, c)) };
    assert.deepEqual(JSON.parse(parts.stats), JSON.parse(whole.stats));
    const sorted = (json: string) => {
      const doc = JSON.parse(json) as { findings: unknown[]; read: unknown };
      return { ...doc, findings: doc.findings.map((f) => JSON.stringify(f)).sort() };
    };
    const [a, b] = [sorted(parts.anomalies), sorted(whole.anomalies)];
    assert.deepEqual(a, b);
    // the record without a valid trace id, and the log line cut off inside a JSON object
    assert.match(JSON.stringify(b.read), /"malformedLines":2/);
  });

  it('writes the same index from span lines read at fixed offsets as from lines searched', async () => {
    // the same spans, once as the exporter lays them out (ids read where they lie, lines written
    // straight into the partition buffers) and once behind a prefix, which sends every line
    // through the byte search and a partition line of its own
    const lines = defaultPresetSpans(['0-0', '1-0', '2-0', '3-0', '4-0', '5-0']).map(consoleLine);
    const built: Array<Record<string, string>> = [];
    for (const prefix of ['', '[agent] ']) {
      const d = tempDir({ 'agent.log': lines.map((l) => prefix + l).join('\n') + '\n' });
      cleanups.push(d.cleanup);
      const index = await openIndex(await expandPaths([d.dir]), d.dir, { partitionTargetBytes: 1024, largeTraceSpans: 4 });
      assert.equal(index.built, true);
      // the manifest names the input, whose size differs by the prefixes
      const { 'manifest.txt': _, ...files } = indexFiles(d.dir);
      built.push(files);
    }
    assert.deepEqual(built[0], built[1]);
    const rollouts = Object.entries(built[0]!).filter(([f, t]) => f.startsWith('rollouts-') && t !== '');
    assert.equal(rollouts.flatMap(([, t]) => t.trim().split('\n')).length, 6, 'every rollout indexed');
    assert.ok(Object.keys(built[0]!).filter((f) => f.endsWith('.part')).length > 1, 'split over several partitions');
  });

  it('survives a file that is one long line without a newline', async () => {
    const d = tempDir({ 'one.log': 'x'.repeat(10_000) });
    cleanups.push(d.cleanup);
    writeFileSync(d.path('spans.log'), consoleLine(bare('only', '5555555555555555', null, 0, 1)));
    setBuildChunkBytes(64);
    const index = await openIndex(await expandPaths([d.dir]), d.dir);
    assert.equal(index.stats.linesRead, 2);
    assert.equal(index.stats.skippedLines, 1);
  });
});
