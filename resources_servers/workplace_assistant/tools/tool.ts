/**
 * What a workplace tool is: its parameter names (an unknown one is refused, as Python refuses an
 * unexpected keyword argument) and a function of the session's company and the arguments. Plus the
 * pagination the search tools share.
 * @module
 */
import type { Company } from '../company.js';

/** Arguments as the call gave them: a missing key takes the parameter's default. */
export type Args = Record<string, unknown>;

/** One tool. */
export interface WorkplaceTool {
  params: readonly string[];
  run(company: Company, args: Args): unknown;
}

/** The argument `name`, or `fallback` when the call did not give it. */
export function arg(args: Args, name: string, fallback: unknown = null): unknown {
  return Object.hasOwn(args, name) ? args[name] : fallback;
}

/** Python's slice `items[start:end]` (negative bounds count from the end). */
function slice<T>(items: readonly T[], start: number, end: number): T[] {
  const at = (i: number) => (i < 0 ? Math.max(0, items.length + i) : Math.min(i, items.length));
  return items.slice(at(start), at(end));
}

/** One page of `items` and the pagination block, `total_<noun>` counting them all, as the search tools answer. */
export function paginate(items: readonly unknown[], page: unknown, pageSize: unknown, key: string, noun: string): Record<string, unknown> {
  if (typeof page !== 'number' || typeof pageSize !== 'number') throw new TypeError("'<' not supported between the given page and page_size");
  if (pageSize === 0) throw new RangeError('integer division or modulo by zero');
  const total = items.length;
  const totalPages = Math.floor((total + pageSize - 1) / pageSize);
  const current = totalPages > 0 ? Math.max(1, Math.min(page, totalPages)) : 1;
  const start = (current - 1) * pageSize;
  return { [key]: slice(items, start, Math.min(start + pageSize, total)), pagination: { [`total_${noun}`]: total, page: current, page_size: pageSize, total_pages: totalPages } };
}

/** A date or date-time as the tools read one (`YYYY-MM-DD`, optionally ` HH:MM[:SS]` or `T…`), in ms; `undefined` when unreadable. */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*$/.exec(value);
  if (match === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(ms);
  return check.getUTCDate() === Number(d) && check.getUTCMonth() === Number(mo) - 1 && Number(h) < 24 && Number(mi) < 60 && Number(s) < 60 ? ms : undefined;
}
