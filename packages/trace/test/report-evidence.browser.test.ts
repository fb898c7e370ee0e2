// The HTML report with `--evidence` in headless Chromium: a rollout's evidence, found by the
// rollout id its rollouts-file row records (never by trace id), opens under its waterfall — model input and output
// items, tokens, finish reason, tool calls, gaps, health verdict — and hostile content stays text.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { report } from '../src/commands/report.js';
import { capture } from './support/capture.js';
import { browserSkip, openReport } from './support/chromium.js';
import type { OpenedReport } from './support/chromium.js';
import { evidenceRow, HOSTILE } from './support/evidence-rows.js';
import { nextId, rolloutSpans, writeRunLogs } from './support/fixtures.js';

describe('rollout evidence in the HTML report (Chromium)', { skip: browserSkip }, () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  let opened: OpenedReport;
  let page: Page;

  before(async () => {
    const traceId = nextId(16);
    const logs = writeRunLogs([...rolloutSpans({ rolloutId: '0-0', traceId, atMs: 0 }), ...rolloutSpans({ rolloutId: '1-0', atMs: 500 })]);
    // the row names the trace of rollout 1-0: the join is by rollout id
    cleanups.push(logs.cleanup);
    const rollouts = logs.path('run.jsonl');
    writeFileSync(rollouts, `${JSON.stringify(evidenceRow('0-0', nextId(16)))}\n`);
    writeFileSync(
      logs.path('run_rollout_verdicts.jsonl'),
      `${JSON.stringify({ rollout_id: '0-0', verdict: 'unhealthy', findings: [{ check: 'model_call_failed', locator: 'model_call:c2', detail: 'status 502, server_error' }], unobserved: [] })}\n`,
    );
    const c = capture();
    assert.equal(await report({ paths: [logs.dir], out: logs.path('report.html'), evidence: [rollouts] }, c), 0, c.err);
    assert.match(c.out, /1 with rollout evidence/);
    opened = await openReport(logs.path('report.html'));
    cleanups.unshift(() => opened.close());
    page = opened.page;
    await page.locator('tr.row').first().waitFor();
  });

  after(async () => {
    for (const c of cleanups) await c();
  });

  it('opens the evidence of the rollout whose row carries its rollout id', async () => {
    await page.locator('tr.row', { hasText: '0-0' }).click();
    const box = page.locator('tr.detail .evidence');
    await box.waitFor();
    assert.equal(await box.locator('h3').textContent(), 'Rollout evidence 0-0');
    assert.equal(await box.locator('.ev-health .badge').textContent(), 'unhealthy');
    assert.match((await box.locator('.ev-finding').textContent()) ?? '', /^model_call_failed at model_call:c2/);
    assert.equal(await box.locator('.ev-call').count(), 2);
    const first = box.locator('.ev-call').first();
    assert.match((await first.locator('.ev-head').textContent()) ?? '', /policy-7b · status 200 · finish tool_calls · tokens in 45 \/ out 4/);
    assert.match((await first.locator('.ev-items').first().textContent()) ?? '', /user: weather in sf\?/);
    assert.match((await first.locator('.ev-output').textContent()) ?? '', /function_call get_weather/);
    assert.match((await box.locator('.ev-call').nth(1).locator('.ev-head').textContent()) ?? '', /FAILED 502 server_error/);
    assert.ok(((await box.locator('.ev-tool').textContent()) ?? '').includes(`result: ${HOSTILE}`));
    assert.match((await box.locator('.ev-gap').textContent()) ?? '', /^model_call_capture_incomplete/);
    assert.equal(await page.locator('img').count(), 0, 'hostile content is text');
  });

  it('shows no evidence section for a rollout without evidence, and made no request', async () => {
    await page.locator('tr.row', { hasText: '1-0' }).click();
    const detail = page.locator('tr.row:has-text("1-0") + tr.detail');
    await detail.locator('.wf').waitFor();
    assert.equal(await detail.locator('.evidence').count(), 0);
    assert.equal(await page.locator('tr.detail .evidence').count(), 1, 'only the 0-0 rollout has evidence');
    assert.deepEqual(
      opened.requests.filter((u) => !u.startsWith('file:')),
      [],
    );
    assert.deepEqual(opened.dialogs, []);
  });
});
