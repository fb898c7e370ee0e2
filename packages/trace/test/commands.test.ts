import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { show } from '../src/commands/show.js';
import { why } from '../src/commands/why.js';
import { stats } from '../src/commands/stats.js';
import { anomalies } from '../src/commands/anomalies.js';
import { capture } from './support/capture.js';
import { consoleLine, rolloutSpans, tempDir, writeRunLogs } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

let one: string; // one rollout
let two: string; // two rollouts, the second slower and failing
let twoTrace: string;
before(() => {
  const a = writeRunLogs(rolloutSpans({ rolloutId: '0-0', reward: 1 }));
  const second = rolloutSpans({ rolloutId: '1-0', atMs: 3000, noVerify: true }).map((s) => (s.name === 'gym.model.responses' ? { ...s, status: { code: 'ERROR', message: 'overloaded' } } : s));
  const slow = second.map((s) => (s.name === 'POST /run' ? { ...s, endMs: s.endMs + 500 } : s.name === 'gym.rollout' ? { ...s, endMs: s.endMs + 400 } : s));
  twoTrace = slow[0]!.traceId;
  const b = writeRunLogs([...rolloutSpans({ rolloutId: '0-0', atMs: 0 }), ...slow]);
  cleanups.push(a.cleanup, b.cleanup);
  one = a.dir;
  two = b.dir;
});

describe('show', () => {
  it('prints the tree with services, durations, bars, critical path and details', async () => {
    const c = capture();
    assert.equal(await show({ paths: [one], rollout: '0-0' }, c), 0);
    const lines = c.out.split('\n');
    assert.match(lines[0]!, /^rollout 0-0 {2}trace [0-9a-f]{32}$/);
    assert.match(c.out, /^\* gym\.rollout +simple_agent +998ms \|█{40}\| rollout 0-0, reward 1$/m);
    assert.match(c.out, /^\* ├─ HTTP POST +simple_agent +600ms \|/m);
    assert.match(c.out, /^\* │  └─ POST \/v1\/responses +policy_model +590ms/m);
    assert.match(c.out, /^\* │     └─ gym\.model\.responses +policy_model +586ms \|.*\| model qwen3-8b, tokens 120 in \/ 45 out$/m);
    assert.match(c.out, /^\* │  └─ POST \/get_weather +weather +85ms \|.*\| tool get_weather$/m);
    assert.match(c.out, /^\*       └─ gym\.verify +weather +251ms \|.*\| reward 1$/m);
    assert.doesNotMatch(c.out, /\u001b\[/);
  });

  it('colours only when asked', async () => {
    const c = capture();
    await show({ paths: [one], rollout: '0-0', color: true }, c);
    assert.match(c.out, /\u001b\[/);
  });

  it('writes JSON and Markdown', async () => {
    const j = capture();
    await show({ paths: [one], rollout: '0-0', format: 'json' }, j);
    const doc = JSON.parse(j.out);
    assert.equal(doc.views[0].rollout_id, '0-0');
    assert.equal(doc.views[0].tree.spans.length, 9);
    assert.equal(doc.views[0].tree.spans[0].critical, true);
    const m = capture();
    await show({ paths: [one], rollout: '0-0', format: 'markdown' }, m);
    assert.match(m.out, /^### rollout 0-0/);
    assert.match(m.out, /```text\n\* gym\.rollout/);
  });

  it('lists rollouts when none is selected, and selects slowest, failed and by trace id', async () => {
    const list = capture();
    await show({ paths: [two] }, list);
    assert.match(list.out, /^2 rollouts in 2 traces/);
    assert.match(list.out, /^1-0 +[0-9a-f]{32} +1\.40s +- +error +6 +-$/m);
    assert.match(list.out, /^0-0 +[0-9a-f]{32} +998ms +1 +ok +9 +-$/m);
    const slowest = capture();
    await show({ paths: [two], slowest: 1 }, slowest);
    assert.match(slowest.out, /^rollout 1-0/);
    const failed = capture();
    await show({ paths: [two], failed: true }, failed);
    assert.match(failed.out, /ERROR: overloaded/);
    assert.doesNotMatch(failed.out, /rollout 0-0/);
    const byTrace = capture();
    await show({ paths: [two], trace: twoTrace.slice(0, 8) }, byTrace);
    assert.match(byTrace.out, /^trace [0-9a-f]{32} {2}7 spans/);
    assert.match(byTrace.out, /^\* POST \/run/m);
  });
});

describe('why', () => {
  it('prints categories that sum to the wall time, and JSON', async () => {
    const c = capture();
    assert.equal(await why({ paths: [one], id: '0-0' }, c), 0);
    assert.match(c.out, /^rollout 0-0 — trace [0-9a-f]{32} — wall 998ms — reward 1$/m);
    assert.match(c.out, /^Diagnosis: 590ms of 998ms \(59\.1%\) inside gym\.model\.responses on policy_model: the model is the bottleneck .*\(no saturation metrics recorded\)$/m);
    assert.match(c.out, /^model +590ms +59\.1%/m);
    assert.match(c.out, /^network \+ queue \(phases not recorded\) +40ms +4\.0% +before 20ms, after 20ms$/m);
    assert.match(c.out, /^POST \/verify +weather +270ms +255ms +- +- +~10ms +~5\.0ms +- +\* +simple_agent$/m);
    const j = capture();
    await why({ paths: [one], id: '0-0', format: 'json' }, j);
    const doc = JSON.parse(j.out);
    assert.equal(doc.type, 'attribution');
    assert.equal(
      Object.values(doc.categories as Record<string, number>).reduce((a, b) => a + b, 0),
      doc.wallMs,
    );
  });

  it('aggregates with --all', async () => {
    const c = capture();
    await why({ paths: [two], all: true }, c);
    assert.match(c.out, /^2 rollouts — total wall/m);
    const j = capture();
    await why({ paths: [two], all: true, format: 'json' }, j);
    assert.equal(JSON.parse(j.out).rollouts, 2);
  });

  it('asks for an id when given none', async () => {
    const c = capture();
    assert.equal(await why({ paths: [one] }, c), 2);
    assert.match(c.err, /GYM_TRACE_BAD_OPTION.*--all/);
  });
});

describe('stats', () => {
  it('prints a table per span name, and JSON', async () => {
    const c = capture();
    assert.equal(await stats({ paths: [two] }, c), 0);
    assert.match(c.out, /^gym\.model\.responses +2 +1 \(50\.0%\) +586ms/m);
    const j = capture();
    await stats({ paths: [two], by: 'service', format: 'json' }, j);
    assert.equal(JSON.parse(j.out).groups.length, 3);
  });

  it('compares two inputs', async () => {
    const c = capture();
    assert.equal(await stats({ compare: [one, two], thresholdPct: 5 }, c), 0);
    assert.match(c.out, /groups moved more than 5%/);
    assert.match(c.out, /^! +gym\.rollout +slower/m);
  });

  it('rejects an unknown --by', async () => {
    const c = capture();
    assert.equal(await stats({ paths: [one], by: 'colour' }, c), 2);
    assert.match(c.err, /Unknown --by 'colour'/);
  });
});

describe('anomalies', () => {
  it('reports rollouts without verify and error spans, and JSON', async () => {
    const c = capture();
    assert.equal(await anomalies({ paths: [two] }, c), 0);
    assert.match(c.out, /^missing_verify +1 /m);
    assert.match(c.out, /rollout 1-0 \(trace/);
    const j = capture();
    await anomalies({ paths: [two], format: 'json' }, j);
    const doc = JSON.parse(j.out);
    assert.equal(doc.counts.error_span, 1);
    assert.equal(doc.read.spans, 17);
  });

  it('says so when there is nothing to report', async () => {
    const c = capture();
    await anomalies({ paths: [one] }, c);
    assert.equal(c.out, 'No anomalies found.\n');
  });
});

describe('bad input', () => {
  it('names a missing path', async () => {
    const c = capture();
    assert.equal(await show({ paths: ['does/not/exist'] }, c), 2);
    assert.match(c.err, /GYM_TRACE_PATH_NOT_FOUND.*does\/not\/exist/);
  });

  it('reports lines read and skipped when there are no spans', async () => {
    const d = tempDir({ 'a.log': 'hello\nworld\n{"level":30,"msg":"hi"}\n{oops\n' });
    cleanups.push(d.cleanup);
    const c = capture();
    assert.equal(await stats({ paths: [d.dir] }, c), 2);
    assert.match(c.err, /GYM_TRACE_NO_SPANS.*read 4 lines in 1 file: 0 spans, 3 other lines skipped, 1 malformed \(first: .*a\.log:4 /);
  });

  it('lists close ids when a rollout is not found', async () => {
    const c = capture();
    assert.equal(await why({ paths: [two], id: '1-1' }, c), 2);
    assert.match(c.err, /No rollout or trace with id '1-1'.*Closest ids: 1-0, 0-0/);
  });

  it('refuses two selectors at once', async () => {
    const c = capture();
    assert.equal(await show({ paths: [one], rollout: '0-0', failed: true }, c), 2);
  });
});

describe('default paths', () => {
  it('reads the newest run directory under .gym/logs', async () => {
    const d = tempDir();
    cleanups.push(d.cleanup);
    for (const [run, id, t] of [
      ['run-old', 'old', 1_000_000],
      ['run-new', 'new', 2_000_000],
    ] as const) {
      const dir = join(d.dir, '.gym', 'logs', run);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'agent.log'), rolloutSpans({ rolloutId: id }).map(consoleLine).join('\n'));
      utimesSync(dir, t, t);
    }
    const c = capture();
    assert.equal(await show({ cwd: d.dir }, c), 0);
    assert.match(c.out, /^rollout new/);
  });

  it('prefers the run .gym/logs/latest points at over a directory touched later', async () => {
    const d = tempDir();
    cleanups.push(d.cleanup);
    for (const [run, id, t] of [
      ['run-a', 'pointed', 1_000_000],
      ['run-b', 'touched', 2_000_000],
    ] as const) {
      const dir = join(d.dir, '.gym', 'logs', run);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'agent.log'), rolloutSpans({ rolloutId: id }).map(consoleLine).join('\n'));
      utimesSync(dir, t, t);
    }
    symlinkSync('run-a', join(d.dir, '.gym', 'logs', 'latest'));
    const c = capture();
    assert.equal(await show({ cwd: d.dir }, c), 0);
    assert.match(c.out, /^rollout pointed/);
  });

  it('passes over newer runs without spans (a run without telemetry moved latest) and says which it read', async () => {
    const d = tempDir();
    cleanups.push(d.cleanup);
    const logs = join(d.dir, '.gym', 'logs');
    for (const [run, lines, t] of [
      ['20260101T000000Z', rolloutSpans({ rolloutId: 'traced' }).map(consoleLine), 1_000_000],
      ['20260101T010000Z', ['{"level":30,"msg":"listening"}', 'plain text'], 2_000_000],
      ['20260101T020000Z', ['{"type":"metric","name":"x"}'], 3_000_000],
    ] as const) {
      mkdirSync(join(logs, run), { recursive: true });
      writeFileSync(join(logs, run, 'agent.log'), lines.join('\n'));
      utimesSync(join(logs, run), t, t);
    }
    symlinkSync('20260101T020000Z', join(logs, 'latest'));
    const c = capture();
    assert.equal(await show({ cwd: d.dir }, c), 0);
    assert.match(c.out, /^rollout traced/);
    assert.match(c.err, /^reading \.gym\/logs\/20260101T000000Z \(the newest run with spans; the 2 newer runs have no spans\)$/m);
  });

  it('gives the whole switch when no run has spans', async () => {
    const d = tempDir();
    cleanups.push(d.cleanup);
    mkdirSync(join(d.dir, '.gym', 'logs', 'run'), { recursive: true });
    writeFileSync(join(d.dir, '.gym', 'logs', 'run', 'agent.log'), '{"level":30,"msg":"listening"}\n');
    const c = capture();
    assert.equal(await show({ cwd: d.dir }, c), 2);
    assert.match(c.err, /GYM_TRACE_NO_SPANS.*no run under .* has spans .*NEMO_GYM_OTEL_ENABLED=1 NEMO_GYM_OTEL_EXPORTER=console/i);
  });

  it('explains what to pass when there is no .gym/logs', async () => {
    const d = tempDir();
    cleanups.push(d.cleanup);
    const c = capture();
    assert.equal(await show({ cwd: d.dir }, c), 2);
    assert.match(c.err, /GYM_TRACE_NO_PATHS.*NEMO_GYM_OTEL_ENABLED=1 NEMO_GYM_OTEL_EXPORTER=console.*pass the files or directories/);
  });
});
