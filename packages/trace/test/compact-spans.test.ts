// The compact form of a partition's spans (`<i>.spans`): written the first time a partition is
// read, read by every command after that, and an exact copy of what the lines give.
import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anomalies } from '../src/commands/anomalies.js';
import { BATCH_ENV } from '../src/commands/load-batches.js';
import { stats } from '../src/commands/stats.js';
import { why } from '../src/commands/why.js';
import { COMPACT_VERSION } from '../src/partition/compact-spans.js';
import { openIndex } from '../src/partition/partition-index.js';
import type { PartitionIndex } from '../src/partition/partition-index.js';
import { COMPACT_SUFFIX, readPartitions } from '../src/partition/read-partitions.js';
import { expandPaths } from '../src/read/expand-paths.js';
import { emptyReadStats } from '../src/read/read-stats.js';
import { ResourceCache } from '../src/read/resource-cache.js';
import type { SpanRecord } from '../src/span-record.js';
import { capture } from './support/capture.js';
import { AGENT, bare, BASE_NS, defaultPresetSpans, MODEL, writeRunLogs } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
afterEach(() => {
  delete process.env[BATCH_ENV];
});

const TRACE = 'abababababababababababababababab';

// Span lines whose fields are unusual: escaped and non-ASCII strings (U+2028 among them), numbers
// past 2^53 and with exponents, nested values, no end, no parent, no status, no scope, an end
// before the start, events, an error with a message, a span lasting longer than 2^53 ns, and
// a record that is not a usable span.
function unusualLines(): string[] {
  const ns = (ms: number) => (BASE_NS + BigInt(ms) * 1_000_000n).toString();
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({ type: 'span', trace_id: TRACE, kind: 'INTERNAL', resource: { attributes: { 'service.name': AGENT } }, scope: { name: 'nemo.gym' }, ...fields });
  return [
    line({
      span_id: '1000000000000001',
      parent_span_id: null,
      name: 'root "quoted" \\ back\tslash',
      start_time_unix_nano: ns(0),
      end_time_unix_nano: ns(500),
      status: { code: 'UNSET' },
      attributes: {
        'text.unicode': 'naïve — 日本語 🎲 \u2028 line sep',
        'big.int': 'BIG_NUMBER',
        'big.exp': 1.5e300,
        'neg.zero.ish': -0.0001,
        nested: { a: [1, 'two', null, true] },
        empty: '',
        PROTO_KEY: 'an own key',
      },
      events: [{ name: 'retry', time_unix_nano: ns(10), attributes: { attempt: 2, why: 'timeout\nagain' } }],
      scope: { name: 'nemo.gym', version: '0.1.0' },
    })
      .replace('"BIG_NUMBER"', '9007199254740993') // past 2^53, written as digits
      .replace('"PROTO_KEY"', '"__proto__"'), // JSON.parse makes it an own key, not the prototype
    line({ span_id: '1000000000000002', parent_span_id: '1000000000000001', name: 'never ended', start_time_unix_nano: ns(5), attributes: {} }),
    line({ span_id: '1000000000000003', parent_span_id: '1000000000000001', name: 'ends before it starts', start_time_unix_nano: ns(50), end_time_unix_nano: ns(10) }),
    line({
      span_id: '1000000000000004',
      parent_span_id: '1000000000000001',
      name: 'POST /v1/responses',
      kind: 'SERVER',
      start_time_unix_nano: ns(20),
      end_time_unix_nano: ns(400),
      status: { code: 'ERROR', message: 'upstream said "no" — ✗' },
      attributes: { 'http.route': '/v1/responses', 'http.response.status_code': 503 },
      resource: { attributes: { 'service.name': MODEL, 'process.pid': 4242 } },
      scope: undefined,
    }),
    line({ span_id: '1000000000000005', parent_span_id: null, name: 'a very long span', start_time_unix_nano: '1', end_time_unix_nano: '9007199254740999999', start_time: undefined }),
    // past what an int64 holds (the year 5138)
    line({ span_id: '1000000000000008', parent_span_id: null, name: 'past int64', start_time_unix_nano: '99999999999999999999', end_time_unix_nano: '99999999999999999999', start_time: undefined }),
    line({
      span_id: '1000000000000006',
      parent_span_id: 'ffffffffffffffff',
      name: 'orphan with ISO times',
      start_time: '2026-01-01T00:00:00.123456789Z',
      end_time: '2026-01-01T00:00:01Z',
      resource: {},
    }),
    '{"type":"span","trace_id":"abababababababababababababababab","span_id":"1000000000000007"}',
  ];
}

function unusualRun() {
  const d = writeRunLogs([...defaultPresetSpans(['0-0', '1-0', '2-0']), bare('gym.sandbox.exec', 'cccccccccccccccc', null, 5, 900, { service: MODEL })]);
  cleanups.push(d.cleanup);
  writeFileSync(d.path('unusual.log'), unusualLines().join('\n') + '\n');
  return d;
}

async function readAll(index: PartitionIndex): Promise<{ spans: SpanRecord[]; stats: ReturnType<typeof emptyReadStats> }> {
  const spans: SpanRecord[] = [];
  const stats = emptyReadStats();
  await readPartitions(
    index,
    index.partitionBytes.map((_, i) => i),
    stats,
    (s) => void spans.push(s),
    new ResourceCache(),
  );
  return { spans, stats };
}

describe('compact spans beside the partitions', () => {
  it('gives back every field of every span, and the read counters, as the lines do', async () => {
    const d = unusualRun();
    const index = await openIndex(await expandPaths([d.dir]), d.dir, { partitionTargetBytes: 2048 });
    assert.ok(index.partitionBytes.length > 2, `${index.partitionBytes.length} partitions`);
    const compactFiles = () => readdirSync(index.dir).filter((f) => f.endsWith(COMPACT_SUFFIX));
    assert.deepEqual(compactFiles(), [], 'none before the first read');
    const fromLines = await readAll(index);
    assert.equal(compactFiles().length, index.partitionBytes.length, 'one per partition after it');
    const fromCompact = await readAll(index);
    assert.equal(fromCompact.spans.length, fromLines.spans.length);
    assert.ok(fromLines.spans.length > 20);
    assert.deepEqual(fromCompact.spans, fromLines.spans);
    assert.deepEqual(fromCompact.stats, fromLines.stats);
    assert.equal(fromLines.stats.malformedLines, 1, 'the record without a name');
    // the unusual values themselves
    const root = fromCompact.spans.find((s) => s.spanId === '1000000000000001')!;
    assert.equal(root.attributes['text.unicode'], 'naïve — 日本語 🎲 \u2028 line sep');
    assert.equal(root.attributes['big.int'], Number('9007199254740993'));
    assert.ok(Object.hasOwn(root.attributes, '__proto__'));
    assert.equal(Object.getPrototypeOf(root.attributes), Object.prototype);
    assert.equal(root.events[0]!.timeNs, BASE_NS + 10_000_000n);
    const long = fromCompact.spans.find((s) => s.spanId === '1000000000000005')!;
    assert.equal(long.endNs - long.startNs, 9007199254740999998n);
    assert.equal(fromCompact.spans.find((s) => s.spanId === '1000000000000002')!.ended, false);
    assert.equal(fromCompact.spans.find((s) => s.spanId === '1000000000000008')!.startNs, 99999999999999999999n);
  });

  for (const [name, command] of [
    ['stats', (dir: string, format: 'text' | 'json', c: ReturnType<typeof capture>) => stats({ paths: [dir], format }, c)],
    ['why --all', (dir: string, format: 'text' | 'json', c: ReturnType<typeof capture>) => why({ paths: [dir], all: true, format }, c)],
    ['anomalies', (dir: string, format: 'text' | 'json', c: ReturnType<typeof capture>) => anomalies({ paths: [dir], format }, c)],
  ] as const) {
    it(`${name} over unusual span lines: the same answer read whole, from the partitions' lines and from their compact form`, async () => {
      const d = unusualRun();
      for (const format of ['text', 'json'] as const) {
        const answer = async () => {
          const c = capture();
          assert.equal(await command(d.dir, format, c), 0, c.err);
          return { out: c.out, err: c.err };
        };
        const whole = await answer();
        process.env[BATCH_ENV] = '0.002';
        const lines = await answer();
        const index = join(d.dir, '.gym-trace-index');
        assert.ok(readdirSync(join(index, readdirSync(index)[0]!)).some((f) => f.endsWith(COMPACT_SUFFIX)));
        const compact = await answer();
        delete process.env[BATCH_ENV];
        assert.deepEqual(compact, lines);
        // the one-read answer lists examples in reading order (anomalies) and sums in another order
        if (name === 'stats' && format === 'text') assert.equal(compact.out, whole.out);
      }
    });
  }

  it('reads the lines when a compact file is not one (another version, another byte order, cut short, empty, the JSON of version 2, a meta section without its tables), and writes it again', async () => {
    const d = unusualRun();
    const index = await openIndex(await expandPaths([d.dir]), d.dir, { partitionTargetBytes: 2048 });
    const expected = await readAll(index);
    const first = join(index.dir, `0${COMPACT_SUFFIX}`);
    const good = readFileSync(first);
    assert.equal(good.subarray(0, 8).toString('latin1'), 'GYMSPANS');
    const patched = (offset: number, value: number) => {
      const b = Buffer.from(good);
      b.writeUInt32LE(value, offset);
      return b;
    };
    assert.equal(good.readUInt32LE(12), COMPACT_VERSION);
    const older = patched(12, COMPACT_VERSION - 1);
    const otherOrder = patched(8, 0x04030201);
    const jsonDocument = Buffer.from(JSON.stringify({ version: 2, formats: [0, 0, 0], malformed: [], base: '0', traces: [], names: [], resources: [], scopes: [], spans: [] }));
    // the meta section replaced by JSON of the same length that lacks the tables
    const metaAt = good.length - good.readUInt32LE(24);
    const noTables = Buffer.concat([good.subarray(0, metaAt), Buffer.from(JSON.stringify({ n: 'x'.repeat(good.length - metaAt - 8) }))]);
    assert.equal(noTables.length, good.length);
    for (const bad of [older, otherOrder, good.subarray(0, good.length / 2), good.subarray(0, good.length - 1), Buffer.alloc(0), jsonDocument, noTables]) {
      writeFileSync(first, bad);
      assert.deepEqual(await readAll(index), expected);
      assert.ok(readFileSync(first).equals(good), 'written again');
    }
  });

  it("gives the same spans when a compact file's extras (status message, events, wide times) are out of span order", async () => {
    const d = unusualRun();
    const index = await openIndex(await expandPaths([d.dir]), d.dir, { partitionTargetBytes: 1 << 20 });
    const expected = await readAll(index);
    const file = join(index.dir, `0${COMPACT_SUFFIX}`);
    const good = readFileSync(file);
    const metaAt = good.length - good.readUInt32LE(24);
    const meta = JSON.parse(good.toString('utf8', metaAt)) as { extras: unknown[] };
    assert.ok(meta.extras.length >= 3, `${meta.extras.length} spans with extras`);
    // the same meta with its extras reversed: the same length, so only their order changes
    const reversed = Buffer.from(JSON.stringify({ ...meta, extras: [...meta.extras].reverse() }));
    assert.equal(reversed.length, good.length - metaAt);
    writeFileSync(file, Buffer.concat([good.subarray(0, metaAt), reversed]));
    assert.deepEqual(await readAll(index), expected);
  });

  it('keeps attribute values apart: a scalar is stored once, an object or array once per span that has it', async () => {
    const d = unusualRun();
    const index = await openIndex(await expandPaths([d.dir]), d.dir, { partitionTargetBytes: 1 << 20 });
    const fromLines = await readAll(index);
    const { spans } = await readAll(index);
    assert.deepEqual(spans, fromLines.spans);
    const rollouts = spans.filter((s) => s.name === 'gym.rollout');
    assert.ok(rollouts.length >= 3);
    // each span its own attribute map, even where two maps are equal
    assert.notEqual(rollouts[0]!.attributes, spans.find((s) => s !== rollouts[0] && s.attributes['nemo.gym.rollout.id'] === rollouts[0]!.attributes['nemo.gym.rollout.id'])!.attributes);
    const root = spans.find((s) => s.spanId === '1000000000000001')!;
    (root.attributes['nested'] as { a: unknown[] }).a.push('changed');
    const again = (await readAll(index)).spans.find((s) => s.spanId === '1000000000000001')!;
    assert.deepEqual(again.attributes['nested'], { a: [1, 'two', null, true] });
  });

  it('rebuilds an index of the previous version rather than reading it', async () => {
    const d = unusualRun();
    const files = await expandPaths([d.dir]);
    const index = await openIndex(files, d.dir, { partitionTargetBytes: 2048 });
    await readAll(index);
    const manifest = join(index.dir, 'manifest.txt');
    assert.equal((await openIndex(files, d.dir)).built, false);
    const current = JSON.parse(readFileSync(manifest, 'utf8')) as { version: number };
    assert.equal(current.version, 6);
    writeFileSync(manifest, JSON.stringify({ ...current, version: 5 }));
    const reopened = await openIndex(files, d.dir, { partitionTargetBytes: 2048 });
    assert.equal(reopened.built, true);
    assert.equal(reopened.dir, index.dir);
    assert.equal((JSON.parse(readFileSync(manifest, 'utf8')) as { version: number }).version, 6);
    assert.ok(!existsSync(join(index.dir, `0${COMPACT_SUFFIX}`)), 'the old compact files went with the old index');
  });
});
