// A run too large to read whole is read from its store trace by trace, in batches.
// `GYM_TRACE_BATCH_MIB` set tiny makes small runs take that path (with every multi-span trace
// split under its root), so each command's output can be compared with the one-read answer.
import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anomalies } from '../src/commands/anomalies.js';
import { compareStats } from '../src/analyze/compare.js';
import { computeStats } from '../src/analyze/stats.js';
import { BATCH_ENV } from '../src/commands/load-batches.js';
import { loadRolloutPartition, loadTracePartition } from '../src/commands/load-rollout.js';
import { loadTelemetry } from '../src/commands/load.js';
import { show } from '../src/commands/show.js';
import { stats } from '../src/commands/stats.js';
import { why } from '../src/commands/why.js';
import { toJson } from '../src/render/format.js';
import { capture } from './support/capture.js';
import { AGENT, bare, defaultPresetSpans, linkedRolloutSpans, MODEL, RESOURCES, rolloutSpans, writeRunLogs } from './support/fixtures.js';
import { otlpResponsesRequest, pythonVerifyLog } from './support/foreign-spans.js';
import { COLLECTOR } from './support/phased-rollouts.js';
import { writeSaturatedRun } from './support/saturated-run.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
afterEach(() => {
  delete process.env[BATCH_ENV];
});

const TINY_BATCH_MIB = '0.002';

type Command = (dir: string, format: 'text' | 'json') => Promise<string>;

const COMMANDS: Record<string, Command> = {
  stats: async (dir, format) => run((c) => stats({ paths: [dir], format }, c)),
  'stats --by service': async (dir, format) => run((c) => stats({ paths: [dir], by: 'service', format }, c)),
  anomalies: async (dir, format) => run((c) => anomalies({ paths: [dir], format }, c)),
  'why --all': async (dir, format) => run((c) => why({ paths: [dir], all: true, format }, c)),
};

async function run(cmd: (c: ReturnType<typeof capture>) => Promise<number>): Promise<string> {
  const c = capture();
  assert.equal(await cmd(c), 0, c.err);
  return c.out;
}

async function batched<T>(body: () => Promise<T>, mib = TINY_BATCH_MIB): Promise<T> {
  process.env[BATCH_ENV] = mib;
  try {
    return await body();
  } finally {
    delete process.env[BATCH_ENV];
  }
}

// What depends on the order spans are met in: sums differ in the last bits, findings are listed
// batch by batch, and a cause (a hop between two services) is labelled with the first span seen.
function rounded(json: string): unknown {
  const doc = JSON.parse(json, (k, v: unknown) => (k === 'spanName' ? undefined : typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(9)) : v)) as { findings?: unknown[] };
  if (Array.isArray(doc.findings)) doc.findings = doc.findings.map((f) => JSON.stringify(f)).sort();
  return doc;
}

// A default-preset run (one gym.job trace; the collector's calls carry no rollout id, as in older
// runs), a per-rollout trace without verification, an orphan, an error, a truncated span, a
// Python SDK span, an OTLP/JSON request, log lines and a malformed record.
function mixedRun() {
  const spans = [
    ...defaultPresetSpans(['0-0', '1-0', '2-0', '3-0', '4-0', '5-0']),
    ...rolloutSpans({ rolloutId: 'solo', atMs: 200, noVerify: true }).map((s) => (s.name === 'gym.model.responses' ? { ...s, status: { code: 'ERROR', message: 'overloaded' } } : s)),
    bare('lost child', 'aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 10, 20, { service: MODEL }),
    bare('gym.sandbox.exec', 'cccccccccccccccc', null, 5, 900, { service: RESOURCES, attributes: { 'nemo.span.truncated': true } }),
  ];
  const d = writeRunLogs(spans);
  cleanups.push(d.cleanup);
  writeFileSync(d.path('py_tool.log'), pythonVerifyLog({ status_code: 'OK' }));
  writeFileSync(d.path('otlp.jsonl'), otlpResponsesRequest({ status: { code: 2, message: 'bad' } }) + '\n' + '{"type":"span","trace_id":"zz","span_id":"0000000000000001","name":"x"}\n');
  return d;
}

const IDLE = { elu: 0.08, delayP99Ms: 11 };

// 12 rollouts whose tool calls wait on the weather server's event loop, 97 % busy
function weatherBusyRun(): ReturnType<typeof writeSaturatedRun> {
  const d = writeSaturatedRun({
    rollouts: 12,
    spacingMs: 5,
    shape: () => ({ tool: { serverMs: 2, transitMs: 150 } }),
    loads: { [AGENT]: { elu: 0.2, delayP99Ms: 12 }, [MODEL]: IDLE, [RESOURCES]: { elu: 0.97, delayP99Ms: 240 }, [COLLECTOR]: IDLE },
  });
  cleanups.push(d.cleanup);
  return d;
}

describe('reading a large run in batches', () => {
  for (const [name, cmd] of Object.entries(COMMANDS)) {
    it(`${name}: the same answer in batches as read whole (text and JSON)`, async () => {
      const d = mixedRun();
      const wholeText = await cmd(d.dir, 'text');
      const wholeJson = await cmd(d.dir, 'json');
      const parts = await batched(async () => [await cmd(d.dir, 'text'), await cmd(d.dir, 'json')] as const);
      // anomalies list their examples in the order they are met: batch by batch
      if (name === 'anomalies') assert.deepEqual(parts[0].split('\n').sort(), wholeText.split('\n').sort());
      else assert.equal(parts[0], wholeText);
      assert.deepEqual(rounded(parts[1]), rounded(wholeJson));
      assert.ok(existsSync(join(d.dir, '.gym-trace-store')), 'the store is kept beside the logs');
    });
  }

  it('reads batches of several rollouts, their spans interleaved as at high concurrency, to the one-read answer', async () => {
    // about ten rollouts in flight, each span written when it ends: a partition's rollouts interleave
    const ids = Array.from({ length: 80 }, (_, i) => `${i}-0`);
    const d = writeRunLogs([...defaultPresetSpans(ids)].sort((a, b) => a.endMs - b.endMs));
    cleanups.push(d.cleanup);
    for (const [name, cmd] of Object.entries(COMMANDS)) {
      const whole = await cmd(d.dir, 'json');
      // 0.4 MiB: read in batches (the run is larger), of 26 spans (two rollouts or more)
      assert.deepEqual(rounded(await batched(() => cmd(d.dir, 'json'), '0.4')), rounded(whole), name);
    }
  });

  it('finds the truncation flag and retry counts in batches whatever the attributes text spells', async () => {
    // the batched read looks for these keys in the attributes' text before parsing it: a key the
    // input spelled with an escape, the flag as a string and the key's name as another attribute's
    // value must read as parsed
    const d = writeRunLogs([
      ...defaultPresetSpans(['0-0', '1-0']),
      bare('escaped', '1111111111111111', null, 5, 900, { service: RESOURCES, attributes: { 'nemo.span.truncated': true } }),
      bare('plain', '2222222222222222', null, 5, 900, { service: RESOURCES, attributes: { 'nemo.span.truncated': 'true' } }),
      bare('named', '3333333333333333', null, 5, 900, { service: RESOURCES, attributes: { note: 'nemo.span.truncated' } }),
      bare('HTTP POST', '4444444444444444', null, 5, 900, { service: AGENT, kind: 'CLIENT', attributes: { 'http.request.resend_count': 2 } }),
    ]);
    cleanups.push(d.cleanup);
    for (const file of readdirSync(d.dir)) {
      const text = readFileSync(d.path(file), 'utf8');
      writeFileSync(d.path(file), text.replace('"nemo.span.truncated":true', '"nemo.span.trunc\\u0061ted":true').replace('"http.request.resend_count"', '"http.request.resend\\u005fcount"'));
    }
    for (const [name, cmd] of Object.entries(COMMANDS)) {
      const whole = await cmd(d.dir, 'json');
      assert.deepEqual(rounded(await batched(() => cmd(d.dir, 'json'))), rounded(whole), name);
    }
    assert.equal((JSON.parse(await batched(() => COMMANDS['stats']!(d.dir, 'json'))) as { truncatedExcluded: number }).truncatedExcluded, 2);
    assert.match(await batched(() => COMMANDS['anomalies']!(d.dir, 'json')), /"retries": ?2/);
  });

  it('why --all on a saturated run: the same bottleneck, window and loads in batches', async () => {
    const d = weatherBusyRun();
    const whole = await COMMANDS['why --all']!(d.dir, 'json');
    const parts = await batched(() => COMMANDS['why --all']!(d.dir, 'json'));
    assert.deepEqual(rounded(parts), rounded(whole));
    assert.match((JSON.parse(parts) as { diagnosis: string }).diagnosis, /^weather event loop 97% busy/);
  });

  it("why <rollout> on a large run reads the rollout's trace and the run's saturation metrics: the same attribution and diagnosis", async () => {
    const d = weatherBusyRun();
    for (const format of ['text', 'json'] as const) {
      const whole = await run((c) => why({ paths: [d.dir], id: '7', format }, c));
      assert.equal(await batched(() => run((c) => why({ paths: [d.dir], id: '7', format }, c))), whole, format);
    }
    assert.match(await batched(() => run((c) => why({ paths: [d.dir], id: '7' }, c))), /weather event loop 97% busy/);
    // the batched answer came from the rollout's part, with every saturation point of the run
    const all = await loadTelemetry({ paths: [d.dir] }, capture());
    const part = await batched(() => loadRolloutPartition({ paths: [d.dir] }, '7', capture(), { saturation: true }));
    assert.ok(part !== null && part.set.spanCount < all.set.spanCount, 'read the rollout alone');
    assert.deepEqual(part.saturation, all.saturation);
  });

  it("show --trace and why <trace id> on a large run read a rollout's trace alone; a gym.job trace is read with the run", async () => {
    // 0.4 MiB: a run of 300 rollouts is read in batches, and a trace of up to 51 spans read alone
    const spans = linkedRolloutSpans(Array.from({ length: 300 }, (_, i) => `${i}-0`));
    const d = writeRunLogs(spans);
    cleanups.push(d.cleanup);
    const job = spans[0]!.traceId;
    const rolloutTrace = spans.find((s) => s.attributes?.['nemo.gym.rollout.id'] === '2-0')!.traceId;
    for (const id of [rolloutTrace, rolloutTrace.slice(0, 8).toUpperCase(), job])
      for (const format of ['text', 'json'] as const) {
        const whole = await run((c) => show({ paths: [d.dir], trace: id, format }, c));
        assert.equal(await batched(() => run((c) => show({ paths: [d.dir], trace: id, format }, c)), '0.4'), whole, `show --trace ${id} ${format}`);
        const why1 = await run((c) => why({ paths: [d.dir], id, format }, c));
        assert.equal(await batched(() => run((c) => why({ paths: [d.dir], id, format }, c)), '0.4'), why1, `why ${id} ${format}`);
      }
    const alone = await batched(() => loadTracePartition({ paths: [d.dir] }, rolloutTrace.slice(0, 8), capture()), '0.4');
    assert.deepEqual([...(alone?.set.traces.keys() ?? [])], [rolloutTrace], "the rollout's trace read alone");
    assert.equal(await batched(() => loadTracePartition({ paths: [d.dir] }, job, capture())), null, "a job's rollouts are counted over the whole run");
  });

  it('stats --compare takes each side from its store, to the numbers of each run read whole', async () => {
    const a = writeRunLogs(defaultPresetSpans(Array.from({ length: 60 }, (_, i) => `${i}-0`)));
    const b = writeRunLogs([...defaultPresetSpans(Array.from({ length: 60 }, (_, i) => `${i}-0`))].map((s) => (s.name === 'gym.verify' ? { ...s, endMs: s.endMs + 40 } : s)));
    cleanups.push(a.cleanup, b.cleanup);
    const [wa, wb] = [await loadTelemetry({ paths: [a.dir] }, capture()), await loadTelemetry({ paths: [b.dir] }, capture())];
    const expected = rounded(toJson(compareStats(computeStats(wa.set, wa.rollouts), computeStats(wb.set, wb.rollouts), 10)));
    assert.deepEqual(rounded(await run((c) => stats({ compare: [a.dir, b.dir], format: 'json' }, c))), expected);
    assert.deepEqual(rounded(await batched(() => run((c) => stats({ compare: [a.dir, b.dir], format: 'json' }, c)), '0.4')), expected);
  });

  it("show --rollout reads the rollout's subtree and draws the same tree", async () => {
    const d = mixedRun();
    for (const id of ['3-0', 'solo']) {
      const whole = await run((c) => show({ paths: [d.dir], rollout: id }, c));
      const part = await batched(() => run((c) => show({ paths: [d.dir], rollout: id }, c)));
      assert.equal(part, whole);
      assert.match(part, new RegExp(`^rollout ${id} `));
    }
    // a trace id is not a rollout id: the whole input is read, as before
    const traceId = /trace ([0-9a-f]{32})/.exec(await run((c) => show({ paths: [d.dir], rollout: 'solo' }, c)))![1]!;
    assert.equal(await batched(() => run((c) => show({ paths: [d.dir], rollout: traceId }, c))), await run((c) => show({ paths: [d.dir], rollout: traceId }, c)));
  });

  it('show --slowest finds the slowest rollouts in SQL and draws the same trees as from the whole run', async () => {
    // rollouts that last 0–400 ms longer than the fixture's, in another order than they start
    const longer = [0, 300, 100, 400, 200];
    const spans = longer.flatMap((ms, i) => rolloutSpans({ rolloutId: `r${i}`, atMs: i * 2000 }).map((s) => (s.name === 'POST /run' || s.name === 'gym.rollout' ? { ...s, endMs: s.endMs + ms } : s)));
    const d = writeRunLogs(spans);
    cleanups.push(d.cleanup);
    for (const format of ['text', 'json'] as const) {
      const whole = await run((c) => show({ paths: [d.dir], slowest: 3, format }, c));
      assert.equal(await batched(() => run((c) => show({ paths: [d.dir], slowest: 3, format }, c))), whole);
    }
    const titles = (await batched(() => run((c) => show({ paths: [d.dir], slowest: 3 }, c)))).match(/^rollout r\d/gm);
    assert.deepEqual(titles, ['rollout r3', 'rollout r1', 'rollout r4']);
  });
});
