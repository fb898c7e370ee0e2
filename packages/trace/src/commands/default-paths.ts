/**
 * Where to read when no paths are given: the newest run directory under `.gym/logs/`
 * (`.gym/logs/latest`).
 * @module
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';

/** The log root `gym env start` writes to, relative to the working directory. */
export const DEFAULT_LOG_ROOT = join('.gym', 'logs');

/**
 * Returns `paths` when non-empty. Otherwise: `<cwd>/.gym/logs/latest` (the link gym points at the
 * newest run), else the most recently modified subdirectory of `.gym/logs` (one per run), else
 * `.gym/logs` itself when it holds files.
 * @throws TraceUserError `GYM_TRACE_NO_PATHS` when there is nothing to read.
 */
export async function resolvePaths(paths: readonly string[] | undefined, cwd: string = process.cwd()): Promise<string[]> {
  if (paths !== undefined && paths.length > 0) return [...paths];
  const root = join(cwd, DEFAULT_LOG_ROOT);
  const entries = await readdir(root, { withFileTypes: true }).catch(() => null);
  if (entries === null || entries.length === 0) {
    throw new TraceUserError(
      TRACE_ERROR_CODES.noPaths,
      `No paths given and no logs under ${DEFAULT_LOG_ROOT} in ${cwd}. Pass the files or directories holding console telemetry or OTLP/JSON, e.g. \`gym trace show server-logs/\`.`,
    );
  }
  // written by gym at each run start; a directory's mtime also moves when a report is written into it
  const latest = join(root, 'latest');
  if ((await stat(latest).catch(() => null))?.isDirectory() === true) return [latest];
  let newest: { path: string; mtimeMs: number } | null = null;
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const path = join(root, e.name);
    const { mtimeMs } = await stat(path);
    if (newest === null || mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
  }
  return [newest?.path ?? root];
}
