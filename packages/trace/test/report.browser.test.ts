// Opens the HTML report in headless Chromium through playwright-core: rows render, sorting and
// filtering work, a click opens the waterfall, span details show hostile text as text, and the
// page makes no request other than its own file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { report } from '../src/commands/report.js';
import { capture } from './support/capture.js';
import { rolloutSpans, writeRunLogs } from './support/fixtures.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const EVIL = '</script><img src=x onerror=alert(1)>';
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));

const playwright = await import('playwright-core').catch(() => null);
const skip = !existsSync(CHROMIUM) ? `${CHROMIUM} is not installed` : playwright === null ? 'playwright-core cannot be imported' : false;

describe('the HTML report in Chromium', { skip }, () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  const requests: string[] = [];
  const dialogs: string[] = [];
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    const spans = [0, 1, 2].flatMap((i) => rolloutSpans({ rolloutId: `${i}-0`, atMs: i * 2000 })).map((s) =>
      s.name === 'gym.verify' ? { ...s, attributes: { ...s.attributes, 'tool.note': EVIL } } : s.name === 'gym.rollout' && s.attributes?.['nemo.gym.rollout.id'] === '2-0' ? { ...s, endMs: s.endMs + 700 } : s,
    );
    const logs = writeRunLogs(spans);
    cleanups.push(logs.cleanup);
    const c = capture();
    assert.equal(await report({ paths: [logs.dir], out: logs.path('report.html') }, c), 0, c.err);
    const profile = mkdtempSync(join(tmpdir(), 'gym-trace-chromium-'));
    cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
    context = await playwright!.chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true });
    cleanups.unshift(() => context.close());
    await context.route('**/*', (route) => {
      const url = route.request().url();
      requests.push(url);
      return url.startsWith('file:') ? route.continue() : route.abort();
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(logs.path('report.html')).href);
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
    assert.ok(requests.length >= 1);
    assert.deepEqual(requests.filter((u) => !u.startsWith('file:')), []);
    assert.deepEqual(dialogs, []);
  });
});
