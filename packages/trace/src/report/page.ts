/**
 * The self-contained HTML page: inline CSS, inline script, the data as embedded JSON. No network
 * access — a Content-Security-Policy with `default-src 'none'` and hashes of the one style and
 * script enforces it in the browser.
 * @module
 */
import { createHash } from 'node:crypto';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import type { ReportData } from './report-data.js';

/**
 * JSON safe to place inside `<script type="application/json">`: `<`, `>` and `&` become `\u003c`,
 * `\u003e`, `\u0026` (so no `</script>` or `<!--` can appear), and U+2028/U+2029 are escaped too.
 * `JSON.parse` of the element's text gives back the exact value.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Renders the report page. */
export function renderReportHtml(data: ReportData): string {
  const csp = `default-src 'none'; style-src ${sha256(PAGE_STYLE)}; script-src ${sha256(PAGE_SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const title = `gym trace report — ${data.summary.rollouts} ${data.rowKind === 'rollout' ? 'rollouts' : 'traces'}`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    '<div id="app"><main><h1>gym trace report</h1><p>This report needs JavaScript to draw its tables and waterfalls.</p></main></div>',
    `<script type="application/json" id="gym-trace-data">${embedJson(data)}</script>`,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
