// Opens the HTML report in headless Chromium through playwright-core: rows render, sorting and
// filtering work, a click opens the waterfall, span details show hostile text as text, the
// run-level view of a saturated run is drawn, and the page makes no request other than its own
// file. With GYM_WRITE_DOC_SCREENSHOTS=1 it writes the screenshot docs/trace.md shows.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { report } from '../src/commands/report.js';
import { capture } from './support/capture.js';
import { browserSkip, openReport } from './support/chromium.js';
import type { OpenedReport } from './support/chromium.js';
import { AGENT, MODEL, RESOURCES, rolloutSpans, writeRunLogs } from './support/fixtures.js';
import { COLLECTOR } from './support/phased-rollouts.js';
import { writeSaturatedRun } from './support/saturated-run.js';

const EVIL = '</script><img src=x onerror=alert(1)>';
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
const DOC_IMAGE = fileURLToPath(new URL('../../../docs/images/report-saturated.png', import.meta.url));
const skip = browserSkip;

describe('the HTML report in Chromium', { skip }, () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  let opened: OpenedReport;
  let page: Page;

  before(async () => {
    const spans = [0, 1, 2]
      .flatMap((i) => rolloutSpans({ rolloutId: `${i}-0`, atMs: i * 2000 }))
      .map((s) =>
        s.name === 'gym.verify'
          ? { ...s, attributes: { ...s.attributes, 'tool.note': EVIL } }
          : s.name === 'gym.rollout' && s.attributes?.['nemo.gym.rollout.id'] === '2-0'
            ? { ...s, endMs: s.endMs + 700 }
            : s,
      );
    const logs = writeRunLogs(spans);
    cleanups.push(logs.cleanup);
    const c = capture();
    assert.equal(await report({ paths: [logs.dir], out: logs.path('report.html') }, c), 0, c.err);
    opened = await openReport(logs.path('report.html'));
    cleanups.unshift(() => opened.close());
    page = opened.page;
  });

  after(async () => {
    for (const c of cleanups) await c();
  });

  it('lists the rollouts and the time split', async () => {
    await page.locator('tr.row').first().waitFor();
    assert.equal(await page.locator('tr.row').count(), 3);
    assert.ok((await page.locator('.split div').count()) > 0);
    assert.match((await page.locator('h1').textContent()) ?? '', /gym trace report/);
  });

  it('counts rollouts, not traces, when the run has rollouts (a run has traces of no rollout: the job, the start-up)', async () => {
    const cards = (await page.locator('.cards').textContent()) ?? '';
    assert.match(cards, /3\s*rollouts/);
    assert.doesNotMatch(cards, /traces/);
  });

  it('lists the slowest first, sorts by a column header and filters by the search box', async () => {
    assert.equal(await page.locator('tr.row td').first().textContent(), '2-0');
    await page.getByRole('columnheader', { name: 'duration' }).click();
    assert.equal(await page.locator('tr.row').last().locator('td').first().textContent(), '2-0');
    await page.getByLabel('filter').fill('1-0');
    assert.equal(await page.locator('tr.row').count(), 1);
    await page.getByLabel('filter').fill('');
    assert.equal(await page.locator('tr.row').count(), 3);
  });

  it('opens the waterfall of a clicked row and shows span details as text', async () => {
    await page.locator('tr.row').first().click();
    const wf = page.locator('tr.detail .wf');
    await wf.waitFor();
    assert.equal(await wf.locator('.wf-row:not(.wf-head)').count(), 9, 'the gym.rollout subtree');
    assert.ok((await wf.locator('.wf-bar.crit').count()) >= 4, 'critical-path spans are highlighted');
    await wf.locator('.wf-row', { hasText: 'gym.verify' }).click();
    const panel = page.locator('tr.detail .panel');
    assert.ok(((await panel.textContent()) ?? '').includes(EVIL));
    assert.equal(await page.locator('img').count(), 0);
    await page.evaluate('window.scrollTo(0, 0)');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'trace-report.png'), fullPage: true });
  });

  it('made no request but its own file and raised no dialog', () => {
    assert.ok(opened.requests.length >= 1);
    assert.deepEqual(
      opened.requests.filter((u) => !u.startsWith('file:')),
      [],
    );
    assert.deepEqual(opened.dialogs, []);
  });
});

// A run whose agent event loop saturates mid-run: every call out of the agent queues behind it.
const ROLLOUTS = 60;
function busyAgentRun() {
  const busy = (ms: number) => (ms < 150 ? 0.35 : ms < 700 ? 0.97 : 0.4);
  return writeSaturatedRun({
    rollouts: ROLLOUTS,
    spacingMs: 12,
    exportEveryMs: 25,
    shape: (i) => {
      const q = i < 12 || i > 55 ? 2 + (i % 3) : 40 + ((i * 17) % 60);
      return { model: { serverMs: 30 + (i % 5) * 4, queuedMs: q, connectMs: i < 2 ? 3 : 0 }, tool: { serverMs: 3, queuedMs: q / 2 }, verify: { serverMs: 4, queuedMs: q / 3 } };
    },
    loads: { [AGENT]: { elu: 0, eluAt: busy, delayP99Ms: 41 }, [MODEL]: { elu: 0.22, delayP99Ms: 12 }, [RESOURCES]: { elu: 0.08, delayP99Ms: 11 }, [COLLECTOR]: { elu: 0.15, delayP99Ms: 11 } },
    memory: ['simple_agent', 'policy_model', 'weather'],
  });
}

describe('the run-level view of a saturated run in Chromium', { skip }, () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  let opened: OpenedReport;
  let page: Page;

  before(async () => {
    const run = busyAgentRun();
    cleanups.push(run.cleanup);
    const c = capture();
    // read from inside the run directory, so the page (and the doc screenshot) names no directory of
    // this machine; each test file runs in its own process
    const home = process.cwd();
    process.chdir(run.dir);
    try {
      assert.equal(await report({ paths: ['.'], out: 'report.html' }, c), 0, c.err);
    } finally {
      process.chdir(home);
    }
    opened = await openReport(run.path('report.html'));
    cleanups.unshift(() => opened.close());
    page = opened.page;
    await page.locator('#run-view').waitFor();
  });

  after(async () => {
    for (const c of cleanups) await c();
  });

  it('states the diagnosis above the rollout list', async () => {
    const text = (await page.locator('#run-view .diagnosis').textContent()) ?? '';
    assert.match(
      text,
      /^Diagnosis: simple_agent event loop \d+% busy \(delay p99 41ms\): rollouts waited for CPU in simple_agent — .* lower --concurrency or add simple_agent processes \(num_workers\)$/,
    );
    // DOCUMENT_POSITION_FOLLOWING: the first rollout row comes after the run view
    const order = Number(await page.evaluate("document.getElementById('run-view').compareDocumentPosition(document.querySelector('tr.row')) & 4"));
    assert.ok(order > 0, 'the run view comes before the rollout list');
  });

  it('draws rollouts over time and a histogram that counts every rollout', async () => {
    assert.equal(await page.locator('#run-timeline polyline.inflight').count(), 1);
    const started = await page.locator('#run-timeline rect.started').count();
    assert.ok(started > 10, `started bars: ${started}`);
    const counts = await page.locator('#run-durations rect.hist title').allTextContents();
    const total = counts.reduce((n, t) => n + Number(/: (\d+) rollouts$/.exec(t)![1]), 0);
    assert.equal(total, ROLLOUTS);
  });

  it('shows one saturation strip per process, the agent the busiest mid-run', async () => {
    const rows = page.locator('#run-saturation .sat-row');
    assert.deepEqual(await rows.evaluateAll((gs) => gs.map((g) => g.getAttribute('data-process'))), [COLLECTOR, MODEL, AGENT, RESOURCES]);
    const peak = async (process: string) =>
      Math.max(...(await page.locator(`#run-saturation .sat-row[data-process="${process}"] rect title`).allTextContents()).map((t) => Number(/: (\d+)% busy/.exec(t)![1])));
    assert.equal(await peak(AGENT), 97);
    assert.ok((await peak(MODEL)) < 50);
  });

  it('draws memory over time per server', async () => {
    assert.equal(await page.locator('#run-memory polyline.mem').count(), 3);
    assert.match((await page.locator('#run-view').textContent()) ?? '', /gym\.server\.memory\.usage/);
  });

  it('lists the slowest rollout first with duration bars, and draws phases in its waterfall', async () => {
    const durations = await page.locator('tr.row .dur-bar').evaluateAll((bars) => bars.map((b) => parseFloat((b as unknown as { style: { width: string } }).style.width)));
    assert.equal(durations.length, ROLLOUTS);
    assert.equal(durations[0], 100);
    assert.deepEqual(
      [...durations].sort((a, b) => b - a),
      durations,
    );
    await page.locator('tr.row').first().click();
    const wf = page.locator('tr.detail .wf');
    await wf.waitFor();
    assert.ok((await wf.locator('.wf-ph[data-phase="caller_queue"]').count()) >= 3, 'every call out of the agent queued');
    assert.ok((await wf.locator('.wf-ph[data-phase="callee"]').count()) >= 3);
    if (process.env['GYM_WRITE_DOC_SCREENSHOTS'] === '1') {
      mkdirSync(join(DOC_IMAGE, '..'), { recursive: true });
      await page.evaluate('window.scrollTo(0, 0)');
      const box = await wf.boundingBox();
      await page.screenshot({ path: DOC_IMAGE, clip: { x: 0, y: 0, width: 1280, height: Math.ceil((box?.y ?? 1600) + (box?.height ?? 0) + 20) }, fullPage: true });
    }
  });

  it('made no request but its own file and raised no dialog', () => {
    assert.deepEqual(
      opened.requests.filter((u) => !u.startsWith('file:')),
      [],
    );
    assert.deepEqual(opened.dialogs, []);
  });
});

describe('the saturation strips of processes with long names in Chromium', { skip }, () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  const LONG = 'nemo-gym/example_single_tool_call_resources_server';
  let page: Page;

  before(async () => {
    const run = busyAgentRun();
    cleanups.push(run.cleanup);
    // the same run, its resources server named as the example environment's are
    for (const file of readdirSync(run.dir)) writeFileSync(run.path(file), readFileSync(run.path(file), 'utf8').replaceAll(RESOURCES, LONG));
    const c = capture();
    assert.equal(await report({ paths: [run.dir], out: run.path('report.html') }, c), 0, c.err);
    const opened = await openReport(run.path('report.html'));
    cleanups.unshift(() => opened.close());
    page = opened.page;
    await page.locator('#run-saturation').waitFor();
  });

  after(async () => {
    for (const c of cleanups) await c();
  });

  it('keeps every process name inside the chart, shortened in the middle, the full name on hover', async () => {
    // (no DOM types in the tests' compile: the element is described by what is read of it)
    type SvgText = { getBBox(): { x: number }; childNodes: ArrayLike<{ textContent: string | null }>; querySelector(s: string): { textContent: string | null } | null };
    const labels = await page.locator('#run-saturation .sat-row > text').evaluateAll((ts) =>
      ts.map((node) => {
        const t = node as unknown as SvgText;
        return { x: t.getBBox().x, text: t.childNodes[0]?.textContent ?? '', title: t.querySelector('title')?.textContent ?? '' };
      }),
    );
    assert.equal(labels.length, 4);
    for (const l of labels) assert.ok(l.x >= 0, `${l.title} starts at x=${l.x}, outside the chart`);
    const long = labels.find((l) => l.title === 'example_single_tool_call_resources_server');
    assert.ok(long !== undefined, JSON.stringify(labels));
    assert.match(long.text, /^example_s.*\u2026.*_server$/);
  });
});
