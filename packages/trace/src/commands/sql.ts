/**
 * `gym trace sql "<query>"`: a SQL query over a run's spans, metrics, logs and rollouts, answered
 * by DuckDB over the run's Parquet store (converted from the logs on first use).
 * @module
 */
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { markdownTable, textTable, toJson } from '../render/format.js';
import { openStore } from '../store/open-store.js';
import { viewStatements } from '../store/store-views.js';
import { resolvePaths } from './default-paths.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import { lockDownSql, sandboxHint } from './sql-sandbox.js';
import type { CommandOutput, OutputFormat } from './output.js';

/** Options of {@link sql}. */
export interface SqlOptions extends InputOptions {
  query: string;
  format?: OutputFormat;
  /** DuckDB's memory limit (e.g. `1GB`); it spills to disk beyond it. Default `1GB`. */
  memoryLimit?: string;
  /** DuckDB worker threads. Default: DuckDB's (one per core). */
  threads?: number;
  /** Rows printed at most in text and Markdown (all in JSON). Default 1000. */
  maxRows?: number;
  /** Lets the statement read and write files beyond the run's tables (`read_csv`, `COPY … TO`). Default false. */
  allowFiles?: boolean;
}

const INTEGER_TYPES = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT']);

const MEMORY_LIMIT = /^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;

/** Runs `sql`; returns the exit code (0, or 2 for bad input or a query DuckDB rejects). */
export async function sql(options: SqlOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    const memoryLimit = options.memoryLimit ?? '1GB';
    if (!MEMORY_LIMIT.test(memoryLimit)) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--memory-limit takes a size such as 512MB or 2GB, got '${memoryLimit}'.`);
    if (options.threads !== undefined && (!Number.isInteger(options.threads) || options.threads < 1))
      throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--threads takes a positive integer, got ${options.threads}.`);
    const maxRows = options.maxRows ?? 1000;
    if (!Number.isInteger(maxRows) || maxRows < 1) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--max-rows takes a positive integer, got ${options.maxRows}.`);
    if (options.query.trim().length === 0) throw new TraceUserError(TRACE_ERROR_CODES.badOption, 'Pass a query, e.g. gym trace sql "SELECT name, count(*) FROM spans GROUP BY name".');
    const paths = await resolvePaths(options.paths, options.cwd, out);
    const store = await openStore(paths, out, { memoryLimit, ...(options.threads === undefined ? {} : { threads: options.threads }) });
    try {
      const connection = store.duck.connection;
      for (const statement of viewStatements(store)) await connection.run(statement);
      await lockDownSql(connection, [...store.parts('spans'), ...store.parts('metrics'), ...store.parts('logs')], options.allowFiles === true);
      let reader;
      try {
        reader = await connection.runAndReadAll(options.query);
      } catch (err) {
        throw new TraceUserError(
          TRACE_ERROR_CODES.sqlError,
          `DuckDB rejected the query: ${rejection((err as Error).message)} (tables: spans, metrics, logs, rollouts; see \`gym trace sql "DESCRIBE spans"\`).${sandboxHint((err as Error).message)}`,
          { cause: err },
        );
      }
      const columns = reader.columnNames();
      // integers come back as strings (they may exceed 2^53); the ones that fit are numbers again
      const integer = reader.columnTypes().map((t) => INTEGER_TYPES.has(t.toString()));
      const rows = (reader.getRowsJson() as unknown[][]).map((r) => r.map((v, i) => (integer[i] === true && typeof v === 'string' && Number.isSafeInteger(Number(v)) ? Number(v) : v)));
      out.write(render(columns, rows, options.format ?? 'text', maxRows));
    } finally {
      await store.close();
    }
    return 0;
  });
}

/** DuckDB's first line, and its "Candidate bindings" line when it names the columns a misspelt one may mean. */
function rejection(message: string): string {
  const lines = message.split('\n');
  const candidates = lines.find((l) => l.startsWith('Candidate bindings'));
  return candidates === undefined ? lines[0]! : `${lines[0]} ${candidates.trim()}`;
}

function render(columns: string[], rows: unknown[][], format: OutputFormat, maxRows: number): string {
  if (format === 'json') return toJson(rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]]))));
  const shown = rows.slice(0, maxRows).map((r) => r.map(cell));
  const align = columns.map((_, i) => (rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || r[i] === null) ? 'r' : 'l'));
  const table = format === 'markdown' ? markdownTable(columns, shown, align) : textTable(columns, shown, align);
  const more = rows.length > maxRows ? `… ${rows.length - maxRows} more rows (--max-rows, or --json for all)\n` : '';
  return table + more + (format === 'text' ? `(${rows.length} row${rows.length === 1 ? '' : 's'})\n` : '');
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}
