/**
 * One DuckDB instance per command, sized to the machine: a thread per core and a memory limit
 * (spilling to the store's temporary directory beyond it), so converting or querying a run of any
 * size stays within a bounded memory. `@duckdb/node-api` is loaded only here.
 * @module
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { DuckDBConnection } from '@duckdb/node-api';

/** Environment variable: DuckDB's memory limit (e.g. `1GB`). Default {@link DEFAULT_MEMORY_LIMIT}. */
export const MEMORY_LIMIT_ENV = 'GYM_TRACE_MEMORY_LIMIT';

/** Default memory limit: with the process's own memory it keeps a command under 1 GiB. */
export const DEFAULT_MEMORY_LIMIT = '512MB';

/** Environment variable: DuckDB threads. Default one per core. */
export const THREADS_ENV = 'GYM_TRACE_THREADS';

/** A connection and the instance it belongs to. */
export interface Duck {
  connection: DuckDBConnection;
  /** Another connection to the same database (its own temporary tables), for work beside a query streaming on `connection`; the caller closes it. */
  connect(): Promise<DuckDBConnection>;
  close(): void;
}

/** Settings of {@link openDuck}. */
export interface DuckSettings {
  memoryLimit?: string;
  threads?: number;
  /** Where DuckDB spills; default its own. */
  tempDirectory?: string;
}

/** Opens an in-memory DuckDB with the machine's settings (overridden by `settings`, then the environment). */
export async function openDuck(settings: DuckSettings = {}): Promise<Duck> {
  const { DuckDBInstance } = loadDuckDB();
  const envThreads = Number(process.env[THREADS_ENV]);
  const threads = settings.threads ?? (Number.isInteger(envThreads) && envThreads > 0 ? envThreads : availableParallelism());
  const options: Record<string, string> = {
    memory_limit: settings.memoryLimit ?? process.env[MEMORY_LIMIT_ENV] ?? DEFAULT_MEMORY_LIMIT,
    threads: String(threads),
  };
  if (settings.tempDirectory !== undefined) options['temp_directory'] = settings.tempDirectory;
  const instance = await DuckDBInstance.create(':memory:', options);
  const connection = await instance.connect();
  return {
    connection,
    connect: () => instance.connect(),
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * `@duckdb/node-api`, required rather than imported: it is CommonJS, 124 modules, and an `import`
 * of it has Node parse each for its named exports first (about 0.3 CPU-s, more than the rest of
 * a `show --rollout`).
 */
function loadDuckDB(): typeof import('@duckdb/node-api') {
  return createRequire(import.meta.url)('@duckdb/node-api') as typeof import('@duckdb/node-api');
}

/**
 * Runs `work` with `connection`'s database on one thread (an ordered read, or a scan that holds a
 * row group a thread), then gives the other statements their threads back.
 */
export async function onOneThread<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  return withSettings(connection, { threads: '1' }, work);
}

/**
 * Runs `work` with DuckDB's `settings` (name → value, as `SET` takes it), then sets them back as
 * they were (a memory limit as DuckDB reports it: to a tenth of a MiB).
 */
export async function withSettings<T>(connection: DuckDBConnection, settings: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const names = Object.keys(settings);
  const before = (await connection.runAndReadAll(`SELECT ${names.map((n) => `current_setting(${sqlString(n)})::VARCHAR`).join(', ')}`)).getRows()[0]!;
  const set = async (values: readonly unknown[]) => {
    for (const [i, n] of names.entries()) await connection.run(`SET ${n} = ${sqlString(String(values[i]))}`);
  };
  await set(names.map((n) => settings[n]));
  try {
    return await work();
  } finally {
    await set(before);
  }
}

/**
 * Settings for {@link withSettings}: DuckDB's allocator hands memory freed back to the system past
 * 16 MiB rather than its default 128 (for a stage that allocates and frees much of the limit).
 */
export const FREED_MEMORY_BACK: Readonly<Record<string, string>> = { allocator_flush_threshold: '16MiB', allocator_bulk_deallocation_flush_threshold: '16MiB' };

const UNITS: Record<string, number> = { bytes: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 };

/** DuckDB's memory limit in bytes, as it reports it (`61.0 MiB`). */
export async function memoryLimitBytes(connection: DuckDBConnection): Promise<number> {
  const text = String((await connection.runAndReadAll(`SELECT current_setting('memory_limit')`)).getRows()[0]![0]);
  const m = /^([\d.]+)\s*([a-z]+)$/i.exec(text.trim());
  const unit = m === null ? undefined : UNITS[m[2]!.toLowerCase()];
  if (m === null || unit === undefined) throw new Error(`DuckDB reports a memory limit gym does not read: '${text}'`);
  return Number(m[1]) * unit;
}

/** `s` as a SQL string literal. */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** A SQL list of string literals. */
export function sqlList(items: readonly string[]): string {
  return `[${items.map(sqlString).join(', ')}]`;
}
