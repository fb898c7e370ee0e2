import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { report } from '../src/commands/report.js';
import { PAGE_SCRIPT } from '../src/report/page-script.js';
import { embedJson } from '../src/report/page.js';
import type { ReportData } from '../src/report/report-data.js';
import { capture } from './support/capture.js';
import { evidenceRow } from './support/evidence-rows.js';
import { bare, consoleLine, nextId, rolloutSpans, tempDir, writeRunLogs } from './support/fixtures.js';

const EVIL = '</script><img src=x onerror=alert(1)>';
const CHROMIUM = '/usr/bin/chromium';
const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

let dir: string;
let html: string;
let data: ReportData;
before(async () => {
  const spans = [0, 1, 2, 3, 4].flatMap((i) => rolloutSpans({ rolloutId: `${i}-0`, atMs: i * 2000, reward: i % 2 }));
  // Rollout 3-0 fails in the model; its verify span carries a hostile attribute value and name.
  const hostile = spans.map((s) =>
    s.name === 'gym.model.responses' && s.attributes?.['nemo.gym.rollout.id'] === '3-0'
      ? { ...s, status: { code: 'ERROR', message: EVIL } }
      : s.name === 'gym.verify'
        ? { ...s, attributes: { ...s.attributes, 'tool.note': EVIL, 'x&y': '<!-- \u2028 -->' } }
        : s,
  );
  const d = writeRunLogs(hostile);
  cleanups.push(d.cleanup);
  dir = d.dir;
  const c = capture();
  assert.equal(await report({ paths: [dir], out: d.path('report.html'), maxRollouts: 3 }, c), 0, c.err);
  assert.match(c.out, /wrote .*report\.html \(\d+ KiB\): 5 rollouts, 3 with waterfalls, 50 spans/);
  html = readFileSync(d.path('report.html'), 'utf8');
  data = JSON.parse(dataText(html)) as ReportData;
});

function dataText(page: string): string {
  const m = /<script type="application\/json" id="gym-trace-data">([\s\S]*?)<\/script>/.exec(page);
  assert.ok(m, 'the page embeds its data');
  return m[1]!;
}

describe('gym trace report', () => {
  it('embeds data that parses, with every rollout listed and detail for the bounded subset', () => {
    assert.equal(data.type, 'gym_trace_report');
    assert.equal(data.rowKind, 'rollout');
    assert.deepEqual(
      data.rows.map((r) => r.id),
      ['0-0', '1-0', '2-0', '3-0', '4-0'],
    );
    assert.equal(Object.keys(data.details).length, 3);
    const failed = data.rows.find((r) => r.id === '3-0')!;
    assert.equal(failed.status, 'error');
    assert.equal(failed.detail, true, 'error rollouts get detail first');
    assert.equal(data.rows.find((r) => r.id === '1-0')!.reward, 1);
    assert.equal(data.summary.spans, 50);
    assert.equal(data.summary.errorSpans, 1);
    assert.deepEqual(data.summary.services, ['nemo-gym/policy_model', 'nemo-gym/simple_agent', 'nemo-gym/weather']);
    const parts = Object.values(data.summary.timeSplit.categories).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(parts - data.summary.timeSplit.wallMs) < 1e-6, 'the split sums to the wall time');
    assert.ok(data.stats.some((s) => s.name === 'gym.verify' && s.count === 5 && s.p50 > 0 && s.p99 >= s.p95));
  });

  it('carries the run-level view: rollouts over time, durations and the diagnosis, saying no metrics were recorded', () => {
    const run = data.run;
    assert.equal(
      run.timeline.started.reduce((a, b) => a + b, 0),
      5,
    );
    assert.equal(
      run.timeline.finished.reduce((a, b) => a + b, 0),
      5,
    );
    assert.equal(
      run.durations.counts.reduce((a, b) => a + b, 0),
      5,
    );
    assert.equal(Math.max(...run.timeline.inFlight), 1, 'the fixture rollouts do not overlap');
    assert.ok(run.timeline.inFlight.length <= 120 && run.durations.counts.length <= 24);
    assert.equal(run.saturationRecorded, false);
    assert.deepEqual(run.utilization, []);
    assert.match(run.diagnosis, /inside gym\.model\.responses on policy_model: the model is the bottleneck .*\(no saturation metrics recorded\)$/);
    assert.equal(data.categoryLabels.network, 'network + queue (phases not recorded)');
  });

  it('marks critical-path spans and categories in each waterfall', () => {
    const det = data.details[data.rows.find((r) => r.id === '3-0')!.key]!;
    assert.equal(det.spans[0]!.name, 'gym.rollout');
    assert.equal(det.spans[0]!.depth, 0);
    const model = det.spans.find((s) => s.name === 'gym.model.responses')!;
    assert.equal(model.critical, true);
    assert.equal(model.category, 'model');
    assert.equal(model.depth, 3);
    assert.equal(model.statusMessage, EVIL);
    assert.equal(det.spans.find((s) => s.name === 'HTTP POST')!.category, 'network');
    assert.equal(det.spans.find((s) => s.name === 'POST /get_weather')!.category, 'tools');
  });

  it('keeps hostile text inside the data: it round-trips and never appears as markup', () => {
    const verify = Object.values(data.details)
      .flatMap((d) => d.spans)
      .find((s) => s.name === 'gym.verify')!;
    assert.deepEqual(
      verify.attributes.find(([k]) => k === 'tool.note'),
      ['tool.note', EVIL],
    );
    assert.deepEqual(
      verify.attributes.find(([k]) => k === 'x&y'),
      ['x&y', '<!-- \u2028 -->'],
    );
    assert.equal(html.includes(EVIL), false);
    assert.equal(html.includes('<img'), false);
    assert.equal(html.includes('<!--'), false);
    assert.equal((html.match(/<script/g) ?? []).length, 2);
    assert.equal((html.match(/<\/script>/g) ?? []).length, 2);
    assert.equal(embedJson({ a: '</script>&\u2029' }), '{"a":"\\u003c/script\\u003e\\u0026\\u2029"}');
  });

  it('references nothing on the network outside the data', () => {
    // the SVG namespace is a name the DOM needs to create chart elements, never fetched
    const page = html.replace(dataText(html), '').replace("'http://www.w3.org/2000/svg'", "'svg-namespace'");
    assert.doesNotMatch(page, /https?:\/\//);
    assert.doesNotMatch(page, /\/\/cdn/);
    assert.doesNotMatch(page, /<link|<img|<iframe|@import|url\(/i);
    assert.match(dataText(html), /http:\/\/127\.0\.0\.1:9001/, 'attribute URLs stay as data');
  });

  it('pins its inline style and script by hash in a Content-Security-Policy without network sources', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!.replace(/&#39;/g, "'");
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    assert.equal(script, PAGE_SCRIPT);
    assert.match(csp, /^default-src 'none';/);
    assert.ok(csp.includes(`style-src ${hash(style)}`));
    assert.ok(csp.includes(`script-src ${hash(script)}`));
  });

  it('ships a script that compiles', () => {
    assert.doesNotThrow(() => new Script(PAGE_SCRIPT));
  });

  it('lists traces when the input has no rollouts', async () => {
    const d = tempDir({ 'x.log': [bare('job', 'a'.repeat(16), null, 0, 100), bare('step <b>', 'b'.repeat(16), 'a'.repeat(16), 10, 60)].map(consoleLine).join('\n') + '\n' });
    cleanups.push(d.cleanup);
    const c = capture();
    assert.equal(await report({ paths: [d.dir], out: d.path('r.html') }, c), 0, c.err);
    const doc = JSON.parse(dataText(readFileSync(d.path('r.html'), 'utf8'))) as ReportData;
    assert.equal(doc.rowKind, 'trace');
    assert.equal(doc.rows.length, 1);
    assert.deepEqual(
      doc.details[doc.rows[0]!.key]!.spans.map((s) => [s.name, s.depth]),
      [
        ['job', 0],
        ['step <b>', 1],
      ],
    );
  });

  it('gives each rollout its own evidence when rollouts share a trace id (joined by rollout id)', async () => {
    // the `default` preset's files from before one trace per rollout: every row names one trace
    const traceId = nextId(16);
    const d = writeRunLogs(['0-0', '0-1', '1-0'].flatMap((id, i) => rolloutSpans({ rolloutId: id, traceId, atMs: i * 2000 })));
    cleanups.push(d.cleanup);
    const rows = ['0-0', '0-1', '1-0'].map((id) => JSON.stringify(evidenceRow(id, traceId)));
    writeFileSync(d.path('run.jsonl'), `${rows.join('\n')}\n`);
    const c = capture();
    assert.equal(await report({ paths: [d.dir], out: d.path('r.html'), evidence: [d.path('run.jsonl')] }, c), 0, c.err);
    assert.match(c.out, /3 with rollout evidence/);
    const doc = JSON.parse(dataText(readFileSync(d.path('r.html'), 'utf8'))) as ReportData;
    for (const row of doc.rows) assert.equal(doc.evidence?.[row.key]?.rolloutId, row.id);
  });

  it('rejects a bad --max-rollouts with exit code 2', async () => {
    const c = capture();
    assert.equal(await report({ paths: [dir], maxRollouts: -1 }, c), 2);
    assert.match(c.err, /GYM_TRACE_BAD_OPTION/);
  });

  it('renders the rollout rows in headless Chromium', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
    const r = spawnSync(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--dump-dom', `file://${dir}/report.html`], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((r.stdout.match(/<tr class="row"/g) ?? []).length, 5);
    assert.match(r.stdout, /data-key="r3"/);
    assert.equal(r.stdout.includes('<img'), false);
  });
});
