/**
 * Small formatting helpers shared by the renderers.
 * @module
 */

/** `4.21s`, `312ms`, `4.2ms`, `0.42ms`, `2m03s`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  const neg = ms < 0 ? '-' : '';
  const a = Math.abs(ms);
  if (a >= 60_000) {
    const m = Math.floor(a / 60_000);
    return `${neg}${m}m${String(Math.round((a - m * 60_000) / 1000)).padStart(2, '0')}s`;
  }
  if (a >= 1000) return `${neg}${(a / 1000).toFixed(2)}s`;
  if (a >= 10) return `${neg}${Math.round(a)}ms`;
  if (a >= 1) return `${neg}${a.toFixed(1)}ms`;
  if (a === 0) return '0ms';
  return `${neg}${a.toFixed(2)}ms`;
}

/** `0.1234` → `12.3%`. */
export function formatPct(fraction: number | null): string {
  return fraction === null || !Number.isFinite(fraction) ? '-' : `${(fraction * 100).toFixed(1)}%`;
}

/** Service name for display: `nemo-gym/simple_agent` → `simple_agent`. */
export function displayService(service: string): string {
  return service.startsWith('nemo-gym/') ? service.slice('nemo-gym/'.length) : service;
}

/** Pads (or cuts with `…`) to exactly `width` display columns. */
export function fit(s: string, width: number): string {
  if (s.length > width) return width <= 1 ? s.slice(0, width) : `${s.slice(0, width - 1)}…`;
  return s.padEnd(width);
}

/** ANSI styling that is a no-op when colour is off. */
export interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const id = (s: string) => s;

/** Colour functions, or identity functions when `color` is false. */
export function paint(color: boolean): Paint {
  return color
    ? { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) }
    : { bold: id, dim: id, red: id, yellow: id, cyan: id };
}

/** A plain-text table with aligned columns (`r` right-aligns a column). */
export function textTable(headers: readonly string[], rows: readonly string[][], align: readonly ('l' | 'r')[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (align[i] === 'r' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

/** A GitHub-flavoured Markdown table (pipes in cells escaped). */
export function markdownTable(headers: readonly string[], rows: readonly string[][], align: readonly ('l' | 'r')[] = []): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(esc).join(' | ')} |`;
  return [line(headers), `|${headers.map((_, i) => (align[i] === 'r' ? ' ---: ' : ' --- ')).join('|')}|`, ...rows.map(line)].join('\n') + '\n';
}

/** JSON with bigints as decimal strings and Sets/Maps as arrays/objects. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Set ? [...v] : v instanceof Map ? Object.fromEntries(v) : v), 2) + '\n';
}
