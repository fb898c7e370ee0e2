// `show` without a selector and `show --failed` on a run too large to read whole walk its store in
// batches and print what the whole read prints, byte for byte. `GYM_TRACE_BATCH_MIB` set tiny
// makes small runs take that path (every multi-span trace split under its root).
import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BATCH_ENV } from '../src/commands/load-batches.js';
import type { OutputFormat } from '../src/commands/output.js';
import { show } from '../src/commands/show.js';
import type { ShowOptions } from '../src/commands/show.js';
import { showLargeRun } from '../src/commands/show-large.js';
import { JsonElements, toJson, toJsonElement, writeJsonObject } from '../src/render/format.js';
import { capture } from './support/capture.js';
import { runToInterrupt, whenChanged } from './support/interrupted-store.js';
import { bare, defaultPresetSpans, DRIVER, linkedRolloutSpans, MODEL, nextId, RESOURCES, rolloutSpans, writeRunLogs } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';
import { phasedRolloutSpans } from './support/phased-rollouts.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
afterEach(() => {
  delete process.env[BATCH_ENV];
});

const TINY_BATCH_MIB = '0.002';

/** Spans as an exporter writes them: each when it ends, so a trace's first line is not its root. */
function asExported(spans: FixtureSpan[]): FixtureSpan[] {
  return [...spans].sort((a, b) => a.endMs - b.endMs);
}

function failing(spans: FixtureSpan[], name: string, message = 'boom'): FixtureSpan[] {
  return spans.map((s) => (s.name === name ? { ...s, status: { code: 'ERROR', message } } : s));
}

function runOf(spans: FixtureSpan[]): string {
  const d = writeRunLogs(spans);
  cleanups.push(d.cleanup);
  return d.dir;
}

// (a) a trace per rollout: phased rollouts (some opening connections), failures of each kind,
// rollouts starting at the same instant, and a job the rollouts link to
function perRolloutRun(): string {
  return runOf(
    asExported([
      ...phasedRolloutSpans({ rolloutId: 'p0', atMs: 0, model: { serverMs: 30, connectMs: 3 } }),
      ...phasedRolloutSpans({ rolloutId: 'p1', atMs: 40, tool: { serverMs: 5, connectMs: 2 } }),
      ...phasedRolloutSpans({ rolloutId: 'p2', atMs: 80 }),
      // the batches take traces that start together by their id: here the reverse of the files' order
      ...failing(rolloutSpans({ rolloutId: 'e0', atMs: 500, traceId: 'f'.repeat(32) }), 'gym.model.responses', 'overloaded'),
      ...rolloutSpans({ rolloutId: 'nv', atMs: 500, noVerify: true, traceId: '8'.repeat(32) }),
      // and this one's trace first in the files, though its gym.rollout span is written last
      ...rolloutSpans({ rolloutId: 'tie', atMs: 500, traceId: '1'.repeat(32) }).map((s) => (s.name === 'HTTP POST' ? { ...s, endMs: s.startMs + 1 } : s)),
      ...failing(rolloutSpans({ rolloutId: 'e1', atMs: 300 }), 'POST /get_weather'),
      ...linkedRolloutSpans(['l0', 'l1', 'l2']),
    ]),
  );
}

// (b) more rollouts than the list shows, some failed, several starting together
function manyRolloutsRun(): string {
  const ids = Array.from({ length: 64 }, (_, i) => `m${String(i).padStart(2, '0')}`);
  const spans = linkedRolloutSpans(ids).map((s) => ({ ...s, startMs: s.startMs - (s.startMs % 300), endMs: s.endMs + (s.startMs % 7) }));
  return runOf(asExported(failing(spans, 'gym.verify').map((s, i) => (s.name === 'gym.verify' && i % 3 !== 0 ? { ...s, status: { code: 'OK' } } : s))));
}

// 110 rollouts that start at the same instant: 100 whose traces start first (the collector's call
// queued long before), then 10 whose traces are first in the files; and two later ones that
// opened connections
function tiedRolloutsRun(): string {
  const rollout = (id: string, clientAtMs: number): FixtureSpan[] => {
    const traceId = nextId(16);
    const client = { ...bare('HTTP POST', nextId(8), null, clientAtMs, 3000, { traceId, service: DRIVER }), kind: 'CLIENT' as const };
    return [client, ...rolloutSpans({ rolloutId: id, traceId, atMs: 1000, parentSpanId: client.spanId })];
  };
  return runOf(
    asExported([
      ...Array.from({ length: 10 }, (_, i) => rollout(`first-in-files-${i}`, 500)).flat(),
      ...Array.from({ length: 100 }, (_, i) => rollout(`first-started-${i}`, 0)).flat(),
      ...phasedRolloutSpans({ rolloutId: 'cold0', atMs: 5000, model: { serverMs: 30, connectMs: 3 } }),
      ...phasedRolloutSpans({ rolloutId: 'cold1', atMs: 6000, tool: { serverMs: 5, connectMs: 2 } }),
    ]),
  );
}

// (c) the older shape: every rollout under one gym.job trace, one of them failed
function oneJobTraceRun(): string {
  const ids = Array.from({ length: 12 }, (_, i) => `${i}-0`);
  const spans = defaultPresetSpans(ids);
  const failed = spans.find((s) => s.name === 'POST /get_weather' && s.startMs > 500)!;
  return runOf(asExported(spans.map((s) => (s === failed ? { ...s, status: { code: 'ERROR', message: 'timeout' } } : s))));
}

/** A trace without rollouts: a root and `children` spans under it, by default the root's in another file. */
function plainTrace(name: string, atMs: number, children: number, o: { failedChild?: number; rootEndMs?: number; rootService?: string; childService?: string } = {}): FixtureSpan[] {
  const traceId = nextId(16);
  const root = bare(name, nextId(8), null, atMs, o.rootEndMs ?? atMs + 100, { traceId, service: o.rootService ?? MODEL });
  const kids = Array.from({ length: children }, (_, i) =>
    bare(`step ${i}`, nextId(8), root.spanId, atMs + i, atMs + i + 5, {
      traceId,
      service: o.childService ?? (o.rootService === RESOURCES ? MODEL : RESOURCES),
      ...(i === o.failedChild ? { status: { code: 'ERROR', message: 'no' } } : {}),
    }),
  );
  return [root, ...kids];
}

// (d) traces without rollouts, in another order in the files than by their start: failed ones
// (one large enough to be split, its root in the file read last; a leaf), and two that start together
function tracesOnlyRun(): string {
  return runOf(
    asExported([
      ...plainTrace('late start, first written', 50, 1, { failedChild: 0, rootEndMs: 60 }),
      ...plainTrace('split', 10, 6, { failedChild: 4, rootService: RESOURCES }),
      ...plainTrace('leaf', 30, 0, { rootEndMs: 130 }).map((s) => ({ ...s, status: { code: 'ERROR', message: 'lost' } })),
      ...plainTrace('early', 0, 3),
      ...plainTrace('same start', 10, 2),
    ]),
  );
}

async function output(options: ShowOptions): Promise<string> {
  const c = capture();
  assert.equal(await show(options, c), 0, c.err);
  return c.out;
}

/** What the large path prints (asserting that it took the run), with the tiny batch size. */
async function large(options: ShowOptions, mib = TINY_BATCH_MIB): Promise<string> {
  process.env[BATCH_ENV] = mib;
  try {
    const c = capture();
    assert.equal(await showLargeRun(options, c), true, 'the run is walked in batches');
    assert.equal(c.err, '');
    // and `show` takes that path
    assert.equal(await output(options), c.out);
    return c.out;
  } finally {
    delete process.env[BATCH_ENV];
  }
}

const FORMATS: OutputFormat[] = ['text', 'markdown', 'json'];

async function sameAsWhole(dir: string, failed: boolean, mib = TINY_BATCH_MIB): Promise<Record<OutputFormat, string>> {
  const got = {} as Record<OutputFormat, string>;
  for (const format of FORMATS) {
    const options = { paths: [dir], format, failed, width: 200 };
    const whole = await output(options);
    assert.equal(await large(options, mib), whole, `${failed ? '--failed' : 'the list'} as ${format}`);
    got[format] = whole;
  }
  return got;
}

describe('show on a run too large to read whole', () => {
  it('lists a trace-per-rollout run and its failed rollouts as the whole read does', async () => {
    const dir = perRolloutRun();
    const list = await sameAsWhole(dir, false);
    assert.match(list.text, /^10 rollouts in 11 traces/);
    assert.deepEqual(list.text.match(/^(e0|nv|tie) /gm), ['tie ', 'e0 ', 'nv ']);
    assert.match(list.text, /rollouts? opened new connections/);
    assert.match(list.text, /The run's job \(gym\.job, 3 rollouts\)/);
    const failed = await sameAsWhole(dir, true);
    assert.deepEqual(failed.text.match(/^rollout \S+/gm), ['rollout e1', 'rollout e0', 'rollout nv']);
    assert.equal((JSON.parse(failed.json) as { views: unknown[] }).views.length, 3);
  });

  it('lists the first 50 of more rollouts and every one as JSON', async () => {
    const dir = manyRolloutsRun();
    const list = await sameAsWhole(dir, false);
    assert.match(list.text, /^… 14 more$/m);
    assert.equal((JSON.parse(list.json) as { rollouts: unknown[] }).rollouts.length, 64);
    const failed = await sameAsWhole(dir, true);
    assert.ok((JSON.parse(failed.json) as { views: unknown[] }).views.length > 10);
  });

  it('keeps the rollouts that start with the 50th until their traces say which come first', async () => {
    const list = await sameAsWhole(tiedRolloutsRun(), false);
    assert.equal(list.text.match(/^first-in-files-/gm)?.length, 10);
    assert.match(list.text, /^2 rollouts opened new connections/m);
  });

  it('counts the job and its trace once when every rollout sits under one gym.job trace', async () => {
    const dir = oneJobTraceRun();
    const list = await sameAsWhole(dir, false);
    assert.match(list.text, /^12 rollouts in 1 traces .*The run's job \(gym\.job, 12 rollouts\)/);
    const traces = (JSON.parse(list.json) as { traces: Array<{ spans: number; roots: string[] }> }).traces;
    assert.deepEqual(
      traces.map((t) => t.roots),
      [['gym.job']],
    );
    const failed = await sameAsWhole(dir, true);
    assert.equal(failed.text.match(/^rollout /gm)?.length, 1);
  });

  it('lists the traces of a run without rollouts, and its failed traces, one split over batches', async () => {
    const dir = tracesOnlyRun();
    const list = await sameAsWhole(dir, false);
    assert.match(list.text, /^0 rollouts in 5 traces/);
    const failed = await sameAsWhole(dir, true);
    assert.deepEqual(
      failed.text.match(/^trace \S+ {2}\d+ spans/gm)?.map((t) => t.split(' ').at(-2)),
      ['7', '2', '1'],
    );
  });

  it('takes the first line of a split trace from all its subtrees when several share a batch', async () => {
    // 0.4 MiB: traces of more than 51 spans split, batches of 26 spans; the run is larger
    const dir = runOf(
      asExported([
        ...Array.from({ length: 250 }, (_, i) => plainTrace(`t${i}`, 20 + i, 4, { failedChild: i % 50 === 0 ? 1 : undefined, childService: MODEL })).flat(),
        // in one file with the others, its root written after its children and the lines of other traces
        ...plainTrace('split', 21, 60, { failedChild: 30, childService: MODEL, rootEndMs: 400 }),
      ]),
    );
    await sameAsWhole(dir, false, '0.4');
    const failed = await sameAsWhole(dir, true, '0.4');
    assert.match(failed.text, /^trace \S+ {2}61 spans/m);
  });

  it('says so when nothing failed', async () => {
    const dir = runOf(linkedRolloutSpans(['ok0', 'ok1']));
    for (const format of ['text', 'json'] as const) assert.equal(await large({ paths: [dir], failed: true, format }), await output({ paths: [dir], failed: true, format }));
  });

  it("writes an object's arrays element by element in toJson's bytes", async () => {
    const cases: Array<Record<string, unknown>> = [
      {},
      { type: 'list', rollouts: [], jobs: [] },
      {
        type: 'show',
        views: [
          { id: 1n, tree: { children: [{ name: 'a\nb', set: new Set([1]) }] }, none: null },
          { empty: {}, list: [] },
        ],
      },
      { nested: { deep: [1, [2, { x: new Map([['k', 2n]]) }]] }, items: ['x'] },
    ];
    for (const value of cases) {
      let text = '';
      const fields = Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? new JsonElements(v.map((e) => toJsonElement(e))) : v] as const);
      await writeJsonObject(fields, (t) => (text += t));
      assert.equal(text, toJson(value));
    }
  });
});

describe('show on a large run stopped by Ctrl-C', () => {
  it('ends with 130 and removes its spool from the temporary directory', async () => {
    const run = runToInterrupt();
    const tmp = mkdtempSync(join(tmpdir(), 'gym-show-stop-'));
    cleanups.push(run.cleanup, () => rmSync(tmp, { recursive: true, force: true }));
    const spools = () => readdirSync(tmp).filter((f) => f.startsWith('gym-trace-show-'));
    const main = join(import.meta.dirname, 'support', 'cli-main.ts');
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main, 'trace', 'show', '--json', run.dir], {
      env: { ...process.env, [BATCH_ENV]: TINY_BATCH_MIB, TMPDIR: tmp },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = once(child, 'exit');
    // the walk has begun once its spool exists
    await whenChanged(tmp, () => spools().length > 0);
    child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    assert.equal(code, 130, stderr);
    assert.deepEqual(spools(), []);
  });
});
