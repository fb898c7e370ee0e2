// The conversion's fast path (`src/store/fast-range.ts`: DuckDB's read_json writes the spans part
// in one pass, the byte scan's side file the other records) stores every span exactly as the
// JavaScript reader's path does, and falls back to that reader when DuckDB's read and the byte scan
// disagree.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { stats } from '../src/commands/stats.js';
import { scanRange } from '../src/store/scan-range.js';
import { capture } from './support/capture.js';
import { AGENT, bare, consoleLine, defaultPresetSpans, tempDir } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';
import { leanLine, resourceLine } from './support/lean-records.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

const STORE = '.gym-trace-store';

/** `s`'s console line with some fields in another notation. */
function lineWith(s: FixtureSpan, fields: Record<string, unknown>): string {
  return JSON.stringify({ ...(JSON.parse(consoleLine(s)) as Record<string, unknown>), ...fields });
}

// span lines in the notations the normalisation handles: kinds and status codes as numbers and in
// other spellings, a status message, events, links (their "span_id" keys below the top level are
// counted in their text), a parent of zeros, a resource without service.name
function oddLines(): string[] {
  return [
    lineWith(bare('numbered kind', 'a1a1a1a1a1a1a1a1', null, 0, 5, { service: AGENT }), { kind: 2, status: { code: 2, message: 'boom' } }),
    lineWith(bare('spelled kind', 'b2b2b2b2b2b2b2b2', 'a1a1a1a1a1a1a1a1', 1, 4, { service: AGENT }), {
      kind: 'SPAN_KIND_CLIENT',
      status: { code: 'STATUS_CODE_OK' },
      events: [{ name: 'e', time_unix_nano: '1767225600001000000', attributes: { k: 1 } }],
      scope: { name: 'other' },
    }),
    lineWith(bare('zero parent', 'c3c3c3c3c3c3c3c3', '0000000000000000', 2, 3, { service: AGENT }), {
      links: [
        { trace_id: 'ab'.repeat(16), span_id: 'cd'.repeat(8), attributes: {} },
        { trace_id: 'ef'.repeat(16), span_id: '12'.repeat(8), attributes: { k: 'v' } },
      ],
      resource: { attributes: { 'host.name': 'h' } },
      status: 'OK',
    }),
  ];
}

function logLine(spanId: string): string {
  return JSON.stringify({
    type: 'log',
    time_unix_nano: '1767225600002000000',
    severity_text: 'INFO',
    severity_number: 9,
    body: 'rollout finished',
    attributes: { reward: 1 },
    trace_id: 'ab'.repeat(16),
    span_id: spanId,
    resource: { attributes: { 'service.name': AGENT } },
  });
}

async function convert(dir: string): Promise<void> {
  const c = capture();
  assert.equal(await stats({ paths: [dir], format: 'json' }, c), 0, c.err);
}

/** Every row of the store's `table` parts, in order, without the file's path and the chunk and record numbers (each path numbers its own; the line is the same). */
async function rows(dir: string, table: string): Promise<unknown[]> {
  const parts = readdirSync(join(dir, STORE)).filter((f) => f.startsWith(`${table}-`) && f.endsWith('.parquet'));
  if (parts.length === 0) return [];
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    const list = parts.map((p) => `'${join(dir, STORE, p)}'`).join(', ');
    const r = await c.runAndReadAll(`SELECT * EXCLUDE (file, chunk, seq) FROM read_parquet([${list}]) ORDER BY ALL`);
    return r.getRowObjectsJson();
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** The same files twice: as written (the fast path), and with a line of text at the end of each (the reader's path). */
function twoRuns(files: Record<string, string>) {
  const fast = tempDir(files);
  const reader = tempDir(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, text + 'plain log text sends this file to the reader\n'])));
  cleanups.push(fast.cleanup, reader.cleanup);
  return { fast, reader };
}

describe('the fast path of the conversion', () => {
  it('stores the spans of full records exactly as the reader does, in one pass beside log and metric records', async () => {
    const lines = [...defaultPresetSpans(['0-0', '1-0']).map(consoleLine), ...oddLines()];
    const spanCount = lines.length;
    // log records and log text between the spans go to the side file
    lines.splice(3, 0, logLine('a1a1a1a1a1a1a1a1'), JSON.stringify({ level: 30, msg: 'request completed' }));
    const { fast, reader } = twoRuns({ 'all.log': lines.join('\n') + '\n' });
    await convert(fast.dir);
    await convert(reader.dir);
    assert.deepEqual(await rows(fast.dir, 'spans'), await rows(reader.dir, 'spans'));
    assert.equal((await rows(fast.dir, 'spans')).length, spanCount);
    // only the fast path keeps log records: it was taken
    assert.equal((await rows(fast.dir, 'logs')).length, 1);
    assert.equal((await rows(reader.dir, 'logs')).length, 0);
  });

  it('stores lean records (resource records, a span line in another key order) exactly as the reader does', async () => {
    const [a, b, c] = defaultPresetSpans(['0-0']).filter((s) => s.service === AGENT);
    const reordered = JSON.parse(leanLine(c!, 7)) as Record<string, unknown>;
    const { type, ...rest } = reordered;
    const lines = [resourceLine(AGENT, 7, { v: 1 }), leanLine(a!, 7), resourceLine(AGENT, 7, { v: 2 }), leanLine(b!, 7), JSON.stringify({ ...rest, type }), leanLine(c!, 8)];
    const { fast, reader } = twoRuns({ 'agent.log': lines.join('\n') + '\n' });
    await convert(fast.dir);
    await convert(reader.dir);
    const fastSpans = await rows(fast.dir, 'spans');
    assert.equal(fastSpans.length, 4);
    assert.deepEqual(fastSpans, await rows(reader.dir, 'spans'));
  });

  it('falls back to the reader when a "span_id" key is not at the top level, with the same spans', async () => {
    const spans = defaultPresetSpans(['0-0']);
    const nested = JSON.stringify({ type: 'other', payload: { span_id: 'a1a1a1a1a1a1a1a1' } });
    const lines = [...spans.map(consoleLine), nested];
    const { fast, reader } = twoRuns({ 'all.log': lines.join('\n') + '\n' });
    appendFileSync(fast.path('all.log'), logLine('b2b2b2b2b2b2b2b2') + '\n');
    appendFileSync(reader.path('all.log'), logLine('b2b2b2b2b2b2b2b2') + '\n');
    await convert(fast.dir);
    await convert(reader.dir);
    assert.deepEqual(await rows(fast.dir, 'spans'), await rows(reader.dir, 'spans'));
    assert.equal((await rows(fast.dir, 'logs')).length, 0, 'the reader converted it');
  });

  it('stores span lines with ids the reader reads otherwise (not hex, an empty parent, 0x) exactly as the reader does', async () => {
    const spans = defaultPresetSpans(['0-0']);
    const odd = [
      lineWith(bare('not hex', 'a1a1a1a1a1a1a1a1', null, 0, 5, { service: AGENT }), { trace_id: 'g'.repeat(32) }),
      lineWith(bare('empty parent', 'b2b2b2b2b2b2b2b2', null, 1, 4, { service: AGENT }), { parent_span_id: '' }),
      lineWith(bare('prefixed', 'c3c3c3c3c3c3c3c3', null, 2, 3, { service: AGENT }), { span_id: '0xc3c3c3c3c3c3c3c3' }),
    ];
    for (const line of odd) {
      const { fast, reader } = twoRuns({ 'all.log': [...spans.map(consoleLine), line].join('\n') + '\n' });
      await convert(fast.dir);
      await convert(reader.dir);
      assert.deepEqual(await rows(fast.dir, 'spans'), await rows(reader.dir, 'spans'), line);
    }
  });

  it('the byte scan counts "span_id" as a search for the whole key does, none overlapping another', async () => {
    const cases: Array<[string, number]> = [
      ['{"span_id":"a","b":["span_id"]}', 2],
      ['{"x":"span_id"span_id"}', 1],
      ['{"x":1,"pan_id":"span_id""span_id"}', 2],
      ['{"pan_id":"s_pan_id\\"span_id"}', 1],
      ['{"pan_id":"s_pan_id"}', 0],
    ];
    for (const [line, keys] of cases) {
      const t = tempDir({ 'run.log': `${line}\n${line}\n` });
      cleanups.push(t.cleanup);
      assert.equal((await scanRange(t.path('run.log'), 0, Buffer.byteLength(line) * 2 + 2)).spanIdKeys, keys * 2, line);
    }
  });

  it('the byte scan finds a "resourceSpans" key wherever it is, among few capitals or many', async () => {
    const span = consoleLine(bare('Span', '00000000000000a1', null, 0, 5));
    const otlp = JSON.stringify({ resourceSpans: [] });
    const capitals = JSON.stringify({ type: 'log', body: 'S'.repeat(4096) });
    const cases: Array<[string, string[], boolean]> = [
      ['records only', [span, span], true],
      ['a request after records', [span, otlp], false],
      ['a request at the start', [otlp, span], false],
      ['a request after many capitals', [span, capitals, capitals, otlp], false],
      ['many capitals, no request', [span, capitals, capitals], true],
      ['the key cut short at the end', [span, '{"x":"resourceSpa"}'], true],
    ];
    for (const [name, lines, compact] of cases) {
      const t = tempDir({ 'run.log': lines.map((l) => l + '\n').join('') });
      cleanups.push(t.cleanup);
      const file = t.path('run.log');
      const size = Buffer.byteLength(lines.map((l) => l + '\n').join(''));
      assert.equal((await scanRange(file, 0, size)).compactObjects, compact, name);
    }
  });
});
