// The HTML report of a large run: `gym trace report` over a generated run (default 100,000
// rollouts, about 700,000 spans) in a fresh process — wall time, peak RSS, file size — then the
// time from navigation to the page's own "rendered" marker in headless Chromium.
// Run: npm run bench -- report-open   (REPORT_BENCH_ROLLOUTS=20000 for a smaller run)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { writeBigRun } from './support/big-run.js';

const ROLLOUTS = Number(process.env['REPORT_BENCH_ROLLOUTS'] ?? 100_000);
const OPENS = 5;
const CHROMIUM = '/usr/bin/chromium';
const RUNNER = new URL('./support/trace-command.mjs', import.meta.url).pathname;

const dir = mkdtempSync(join(tmpdir(), 'gym-report-bench-'));
try {
  await writeBigRun(dir, ROLLOUTS);
  const html = join(dir, 'report.html');
  const args = ['--conditions=source', '--import', 'tsx', RUNNER, 'report', join(dir, 'run.log'), html];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`report failed: ${r.stderr}`);
  const run = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { code: number; wallMs: number; cpuMs: number; maxRssMiB: number };
  if (run.code !== 0) throw new Error(`report exited ${run.code}: ${r.stderr}`);
  const mb = statSync(html).size / 1e6;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const opens: number[] = [];
  try {
    for (let i = 0; i < OPENS; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const t0 = performance.now();
      await page.goto(pathToFileURL(html).href);
      await page.locator('html[data-rendered]').waitFor({ state: 'attached', timeout: 120_000 });
      opens.push(performance.now() - t0);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  opens.sort((a, b) => a - b);
  console.log(`${ROLLOUTS} rollouts, ${(statSync(join(dir, 'run.log')).size / 1048576).toFixed(0)} MiB of console lines`);
  console.log('| rollouts | report wall s | report CPU s | report peak RSS MiB | HTML MB | open → rendered, median of 5 (min–max) ms |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
  console.log(
    `| ${ROLLOUTS} | ${(run.wallMs / 1000).toFixed(1)} | ${(run.cpuMs / 1000).toFixed(1)} | ${run.maxRssMiB.toFixed(0)} | ${mb.toFixed(2)} | ${opens[Math.floor(OPENS / 2)]!.toFixed(0)} (${opens[0]!.toFixed(0)}–${opens.at(-1)!.toFixed(0)}) |`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
