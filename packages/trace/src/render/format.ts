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

/** `n` and its noun, plural unless one: `1 request`, `3 requests` (nouns that take an `s`). */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
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

/**
 * Cuts `s` to `width` columns in the middle (`example_s…mple_agent`), so names that share a long
 * stem stay told apart by their ends. Pads nothing.
 */
export function elide(s: string, width: number): string {
  if (s.length <= width) return s;
  if (width <= 1) return s.slice(0, Math.max(0, width));
  const head = Math.ceil((width - 1) / 2);
  return `${s.slice(0, head)}…${s.slice(s.length - (width - 1 - head))}`;
}

/**
 * Word-wraps each line of `text` longer than `width`, keeping the line's indentation; continuation
 * lines are indented two more. A run of spaces (between a header's fields) is dropped where the
 * line breaks.
 */
export function wrapProse(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width) return line;
      const lead = /^ */.exec(line)![0];
      const continuation = `${lead}  `;
      const out: string[] = [];
      let current = lead;
      for (const word of line.slice(lead.length).split(' ')) {
        const atStart = current === lead || current === continuation;
        if (word === '' && atStart) continue;
        const next = atStart ? current + word : `${current} ${word}`;
        if (next.length > width && !atStart) {
          out.push(current.trimEnd());
          current = continuation + word;
        } else current = next;
      }
      out.push(current);
      return out.join('\n');
    })
    .join('\n');
}

/** What separates the fields of a header line: `trace <id>  34 spans  agent, model`. */
const FIELD_GAP = '  ';

/**
 * Wraps a header of fields (separated by two spaces) at `width`: between fields, the next line
 * indented by two; a field too wide for a line of its own is word-wrapped as prose.
 */
export function wrapFields(header: string, width: number | undefined): string {
  if (width === undefined || header.length <= width) return header;
  const lines: string[] = [];
  for (const field of header.split(FIELD_GAP)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + FIELD_GAP.length + field.length <= width) lines[last] += FIELD_GAP + field;
    else {
      const indent = lines.length === 0 ? '' : '  ';
      lines.push(
        ...wrapProse(field, width - indent.length)
          .split('\n')
          .map((line) => indent + line),
      );
    }
  }
  return lines.join('\n');
}

/** The width text output fits: the terminal's columns, else `COLUMNS`, never under 80; none when neither is known. */
export function outputWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const columns = stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : Number(env['COLUMNS']);
  return Number.isFinite(columns) && columns > 0 ? Math.max(80, Math.floor(columns)) : undefined;
}

/** Colour on a terminal unless `NO_COLOR` is set (any non-empty value), as no-color.org asks. */
export function useColor(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && (env['NO_COLOR'] ?? '') === '';
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
  return color ? { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) } : { bold: id, dim: id, red: id, yellow: id, cyan: id };
}

/** How a text table fits a width. */
export interface TableFit {
  /** Columns the table may take; none: as wide as its cells. */
  maxWidth?: number;
  /** Columns (indices) that may be left out, first first, when eliding text columns is not enough. */
  droppable?: readonly number[];
  /** Columns never elided (ids to copy). */
  keep?: readonly number[];
  /** Width text columns are elided to before a droppable column is left out (default 10): names worth reading whole. */
  floor?: number;
}

const MIN_TEXT_COLUMN = 10;

/**
 * A plain-text table with aligned columns (`r` right-aligns a column). With `fit.maxWidth`, the
 * widest left-aligned columns are elided in the middle (down to `fit.floor`, 10 columns unless
 * given), then `droppable` columns are left out, until the table fits; a note under the table
 * names what was left out.
 */
export function textTable(headers: readonly string[], rows: readonly string[][], align: readonly ('l' | 'r')[] = [], fit: TableFit = {}): string {
  // a loop, not Math.max(...rows): a table of 100,000s of rows (`stats --by attribute:<id>`) would overflow the stack
  const natural = headers.map((h) => h.length);
  for (const r of rows) for (let i = 0; i < natural.length; i++) natural[i] = Math.max(natural[i]!, (r[i] ?? '').length);
  let columns = headers.map((_, i) => i);
  let widths = [...natural];
  const total = () => columns.reduce((sum, i) => sum + widths[i]!, 0) + 2 * (columns.length - 1);
  // one column at a time off the widest text column, so long names share the cut
  const shrink = (max: number, floor: number) => {
    while (total() > max) {
      const candidates = columns.filter((i) => align[i] !== 'r' && widths[i]! > floor && !(fit.keep ?? []).includes(i));
      if (candidates.length === 0) return;
      const widest = candidates.reduce((a, b) => (widths[b]! > widths[a]! ? b : a));
      widths[widest]!--;
    }
  };
  const dropped: string[] = [];
  if (fit.maxWidth !== undefined) {
    const floor = fit.floor ?? MIN_TEXT_COLUMN;
    shrink(fit.maxWidth, floor);
    // a column is left out only when eliding names to the floor is not enough, and then the
    // names get their room back
    for (const i of fit.droppable ?? []) {
      if (total() <= fit.maxWidth) break;
      columns = columns.filter((c) => c !== i);
      dropped.push(headers[i]!);
      widths = [...natural];
      shrink(fit.maxWidth, floor);
    }
    shrink(fit.maxWidth, MIN_TEXT_COLUMN);
    shrink(fit.maxWidth, 4);
  }
  const line = (cells: readonly string[]) =>
    columns
      .map((i) => {
        const c = elide(cells[i] ?? '', widths[i]!);
        return align[i] === 'r' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!);
      })
      .join('  ')
      .trimEnd();
  const note = dropped.length === 0 ? '' : `(${dropped.join(', ')} left out to fit ${fit.maxWidth} columns; --json has every column)\n`;
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n' + note;
}

/** A GitHub-flavoured Markdown table (pipes in cells escaped). */
export function markdownTable(headers: readonly string[], rows: readonly string[][], align: readonly ('l' | 'r')[] = []): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(esc).join(' | ')} |`;
  return [line(headers), `|${headers.map((_, i) => (align[i] === 'r' ? ' ---: ' : ' --- ')).join('|')}|`, ...rows.map(line)].join('\n') + '\n';
}

/** JSON with bigints as decimal strings and Sets/Maps as arrays/objects. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, jsonReplacer, 2) + '\n';
}

function jsonReplacer(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v instanceof Set ? [...v] : v instanceof Map ? Object.fromEntries(v) : v;
}

/**
 * The text {@link toJson} gives `value` as an element of an array that is a field of the top
 * object (indented two levels), for {@link writeJsonObject}.
 */
export function toJsonElement(value: unknown, { plain = false } = {}): string {
  // `plain`: the value holds no bigint, Set or Map, and is written without calling the replacer
  // on every key (most of the time of a large run's list). JSON text holds no raw newline inside
  // a string: each one starts a line to indent.
  return (plain ? JSON.stringify(value, null, 2) : JSON.stringify(value, jsonReplacer, 2)).replaceAll('\n', '\n    ');
}

/**
 * Writes the text {@link toJson} gives an object whose fields are `fields` (in that order), piece
 * by piece: a field given as `{ elements }` is an array of the texts of {@link toJsonElement},
 * written one at a time as they come, so that no array of a large run is held whole.
 */
export async function writeJsonObject(fields: ReadonlyArray<readonly [string, unknown]>, write: (text: string) => void): Promise<void> {
  write('{');
  let first = true;
  for (const [key, value] of fields) {
    write(`${first ? '' : ','}\n  ${JSON.stringify(key)}: `);
    first = false;
    if (!(value instanceof JsonElements)) {
      write(JSON.stringify(value, jsonReplacer, 2).replaceAll('\n', '\n  '));
      continue;
    }
    let n = 0;
    for await (const element of value.elements) write(`${n++ === 0 ? '[\n' : ',\n'}    ${element}`);
    write(n === 0 ? '[]' : '\n  ]');
  }
  write(first ? '}\n' : '\n}\n');
}

/** An array field of {@link writeJsonObject}: its elements' texts ({@link toJsonElement}), in order. */
export class JsonElements {
  constructor(readonly elements: AsyncIterable<string> | Iterable<string>) {}
}
