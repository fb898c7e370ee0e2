/**
 * The list of an environment's servers that `gym env start` and `gym env status` print: one line
 * per server, or two on a terminal too narrow for that (the name alone, then its type, URL and the
 * rest, indented), so nothing wraps at 80 columns and nothing is cut.
 * @module
 */

/** One server of the list. */
export interface ServerTableRow {
  /** Printed before the name (`ok  `, `DOWN`), or nothing. */
  status?: string;
  name: string;
  type: string;
  url: string;
  /** Printed after the URL (`pid 123`), or nothing. */
  tail?: string;
}

/** The lines of the list; `width` is the columns they must fit (none known: one line per server). */
export function serverTableLines(rows: readonly ServerTableRow[], width: number | undefined): string[] {
  const nameWidth = Math.max(0, ...rows.map((r) => r.name.length));
  const lead = (r: ServerTableRow) => (r.status === undefined ? '' : `${r.status}  `);
  const rest = (r: ServerTableRow) => [r.type.padEnd(20), r.url, ...(r.tail === undefined ? [] : [r.tail])].join('  ');
  const wide = rows.map((r) => `${lead(r)}${r.name.padEnd(nameWidth)}  ${rest(r)}`);
  if (width === undefined || wide.every((line) => line.length <= width)) return wide;
  return rows.flatMap((r) => [`${lead(r)}${r.name}`, `${' '.repeat(lead(r).length + 2)}${rest(r)}`]);
}
