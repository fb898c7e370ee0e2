// The report of a large run (20,000 rollouts, about 140,000 spans, read in batches like `stats`
// reads it) opens in headless Chromium, lists only the failed, the slowest and a sample, says how
// many it left out, and its numbers — rollouts, failed, p50/p99 of gym.rollout, the histogram —
// are the ones `gym trace stats` prints over the same files. How fast it opens is measured by
// bench/report-open.bench.ts, not here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { report } from '../src/commands/report.js';
import { stats } from '../src/commands/stats.js';
import type { SpanStats } from '../src/analyze/stats.js';
import { capture } from './support/capture.js';
import { browserSkip, openReport } from './support/chromium.js';
import type { OpenedReport } from './support/chromium.js';
import { writeBigRun } from '../../../bench/support/big-run.js';
import { tempDir } from './support/fixtures.js';

const ROLLOUTS = 20_000;
// small batches: the run is read in several of them, as a run of millions would be
process.env['GYM_TRACE_BATCH_MIB'] = '24';

describe('the report of a large run in Chromium', { skip: browserSkip }, () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  let opened: OpenedReport;
  let page: Page;
  let statsJson: SpanStats;
  let failed: number;
  let htmlBytes: number;
  let reportOut: string;

  before(async () => {
    const run = tempDir();
    cleanups.push(run.cleanup);
    ({ failed } = await writeBigRun(run.dir, ROLLOUTS));
    const c = capture();
    assert.equal(await report({ paths: [run.dir], out: run.path('report.html') }, c), 0, c.err);
    reportOut = c.out;
    const s = capture();
    assert.equal(await stats({ paths: [run.dir], format: 'json' }, s), 0, s.err);
    statsJson = JSON.parse(s.out) as SpanStats;
    htmlBytes = statSync(run.path('report.html')).size;
    opened = await openReport(run.path('report.html'));
    cleanups.unshift(() => opened.close());
    page = opened.page;
    await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
  });

  after(async () => {
    for (const c of cleanups) await c();
  });

  const value = async (selector: string) => Number(await page.locator(selector).getAttribute('data-value'));
  const rolloutStat = (key: 'count' | 'errorCount' | 'p50' | 'p99') => statsJson.groups.find((g) => g.key === 'gym.rollout')![key];

  it('says on the command line how many rollouts it counted and how many it listed', () => {
    assert.match(reportOut, new RegExp(`: ${ROLLOUTS} rollouts \\(200 listed\\), 200 with waterfalls, \\d+ spans\\n$`));
  });

  it('counts every rollout and every failed one, as stats does', async () => {
    assert.equal(statsJson.rolloutCount, ROLLOUTS);
    assert.equal(await value('#card-rollouts'), statsJson.rolloutCount);
    assert.equal(rolloutStat('errorCount'), failed);
    assert.equal(await value('#card-failed'), rolloutStat('errorCount'));
    assert.match((await page.locator('#card-failed').textContent()) ?? '', new RegExp(`^${failed}failed rollouts$`));
  });

  it('shows the p50 and p99 of gym.rollout that stats prints, over all rollouts', async () => {
    const row = page.locator('#span-stats tr[data-name="gym.rollout"]');
    const cell = async (i: number) => Number(await row.locator('td').nth(i).getAttribute('data-value'));
    assert.equal(await cell(1), rolloutStat('count'));
    assert.equal(await cell(1), ROLLOUTS);
    assert.equal(await cell(3), rolloutStat('p50'));
    assert.equal(await cell(5), rolloutStat('p99'));
    assert.ok(rolloutStat('p99') > 2 * rolloutStat('p50'), 'the generated run has a long tail');
  });

  it('draws the duration histogram and the timeline over every rollout', async () => {
    const counts = await page.locator('#run-durations rect.hist title').allTextContents();
    assert.equal(
      counts.reduce((n, t) => n + Number(/: (\d+) rollouts$/.exec(t)![1]), 0),
      ROLLOUTS,
    );
    const started = await page.locator('#run-timeline rect.started').count();
    assert.ok(started > 0 && started <= 120);
  });

  it('lists only the failed, the slowest and a sample, and says how many it left out', async () => {
    const listing = page.locator('#listing');
    assert.equal(Number(await listing.getAttribute('data-left-out')), ROLLOUTS - 200);
    const m = new RegExp(`^200 of ${ROLLOUTS} rollouts listed: 50 failed, (\\d+) slowest, (\\d+) a uniform sample\\. ${ROLLOUTS - 200} not listed`).exec((await listing.textContent()) ?? '');
    assert.ok(m, 'the listing says what it holds');
    // a failed rollout among the slowest is listed once, as failed: the sample takes its place
    assert.equal(Number(m[1]) + Number(m[2]), 150);
    assert.ok(Number(m[1]) >= 90);
    assert.equal(await page.locator('tr.row').count(), 200, 'no row per rollout of the run in the page');
    const statuses = await page.locator('tr.row .badge').allTextContents();
    assert.ok(statuses.filter((s) => s === 'error').length >= 50);
    const listedAs = await page.locator('tr.row td:last-child').allTextContents();
    assert.deepEqual(new Set(listedAs), new Set(['failed', 'slowest', 'sample']));
    // the slowest listed are the slowest of the run: the first row is the longest rollout
    const first = Number(await page.locator('tr.row').first().locator('td').nth(3).getAttribute('data-value'));
    assert.ok(first > rolloutStat('p99'));
  });

  it('opens the waterfall of a sampled rollout', async () => {
    const sampled = page
      .locator('tr.row', { has: page.locator('td:last-child', { hasText: /^sample$/ }) })
      .filter({ has: page.locator('.badge.ok') })
      .first();
    await sampled.click();
    const wf = page.locator('tr.detail .wf');
    await wf.waitFor();
    assert.equal(await wf.locator('.wf-row:not(.wf-head)').count(), 7, 'the collector call and the rollout under it');
  });

  it('stays a small file', () => {
    assert.ok(htmlBytes < 2 * 1024 * 1024, `${htmlBytes} bytes`);
  });

  it('made no request but its own file and raised no dialog', () => {
    assert.deepEqual(
      opened.requests.filter((u) => !u.startsWith('file:')),
      [],
    );
    assert.deepEqual(opened.dialogs, []);
  });
});
