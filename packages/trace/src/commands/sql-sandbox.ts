/**
 * What a `gym trace sql` statement may reach: the run's tables and nothing else. Once the views
 * exist, DuckDB's file system access is limited to the store's own Parquet parts (and its spill
 * directory), extensions are neither installed nor loaded on demand, and the configuration is
 * locked so that the statement cannot turn any of it back on. `--allow-files` keeps the file
 * system open (reading a CSV beside the run, writing a result with `COPY … TO`).
 * @module
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlList } from '../store/duck.js';

/** The flag that keeps the file system open, as the CLI spells it. */
export const ALLOW_FILES_FLAG = '--allow-files';

/** Restricts `connection` as the module says; `parts` are the Parquet files the views read. */
export async function lockDownSql(connection: DuckDBConnection, parts: readonly string[], allowFiles: boolean): Promise<void> {
  const settings = ['SET autoinstall_known_extensions = false', 'SET autoload_known_extensions = false'];
  if (!allowFiles) settings.push(`SET allowed_paths = ${sqlList(parts)}`, 'SET enable_external_access = false');
  settings.push('SET lock_configuration = true');
  for (const statement of settings) await connection.run(statement);
}

/** The hint added to DuckDB's message when a statement reached for what {@link lockDownSql} closed. */
export function sandboxHint(message: string): string {
  if (/Permission Error|disabled (by|through) configuration|configuration has been locked/i.test(message))
    return ` gym trace sql reads only the run's tables (spans, metrics, logs, rollouts): other files, ATTACH, INSTALL/LOAD and configuration changes are off; ${ALLOW_FILES_FLAG} lets a statement read and write files.`;
  if (/extension/i.test(message)) return ' Extensions are not installed or loaded on demand in gym trace sql.';
  return '';
}
