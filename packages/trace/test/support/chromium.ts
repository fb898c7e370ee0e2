// Opens a report file in headless Chromium (playwright-core, /usr/bin/chromium) with every request
// but the file itself refused and recorded, and every dialog recorded.
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const playwright = await import('playwright-core').catch(() => null);

/** Why the browser tests cannot run here, or false. */
export const browserSkip: string | false = !existsSync(CHROMIUM) ? `${CHROMIUM} is not installed` : playwright === null ? 'playwright-core cannot be imported' : false;

export interface OpenedReport {
  page: Page;
  requests: string[];
  dialogs: string[];
  close(): Promise<void>;
}

/** Opens `file` in a fresh profile at the given viewport. */
export async function openReport(file: string, viewport = { width: 1280, height: 900 }): Promise<OpenedReport> {
  const profile = mkdtempSync(join(tmpdir(), 'gym-trace-chromium-'));
  const context = await playwright!.chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport });
  const requests: string[] = [];
  const dialogs: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    return url.startsWith('file:') ? route.continue() : route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(pathToFileURL(file).href);
  return {
    page,
    requests,
    dialogs,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
