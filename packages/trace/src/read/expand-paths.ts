/**
 * Turns the paths a user passes into the list of files to read.
 * @module
 */
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';

/** Directory of the partition index older versions kept beside the logs. */
export const INDEX_DIR_NAME = '.gym-trace-index';

/** Directory of the Parquet store beside the logs (see `store/open-store.ts`). */
export const STORE_DIR_NAME = '.gym-trace-store';

/** File extensions read when a directory is given. */
export const TELEMETRY_EXTENSIONS: readonly string[] = ['.log', '.jsonl', '.json', '.ndjson'];

/** A file to read and its size in bytes. */
export interface InputFile {
  path: string;
  bytes: number;
}

/**
 * Expands files and directories (recursively: every `*.log`, `*.jsonl`, `*.json`, `*.ndjson`) into
 * a sorted, de-duplicated file list. A file given explicitly is read whatever its extension.
 * @throws TraceUserError `GYM_TRACE_PATH_NOT_FOUND` when a path does not exist.
 */
export async function expandPaths(paths: readonly string[]): Promise<InputFile[]> {
  const out = new Map<string, number>();
  for (const p of paths) {
    const st = await stat(p).catch(() => null);
    if (st === null) throw new TraceUserError(TRACE_ERROR_CODES.pathNotFound, `No such file or directory: ${p}. Pass telemetry log files or the directories holding them.`);
    if (st.isDirectory()) await walk(p, out);
    else out.set(p, st.size);
  }
  return [...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, bytes]) => ({ path, bytes }));
}

async function walk(dir: string, out: Map<string, number>): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries) {
    const full = join(dir, e.name);
    // what gym trace keeps beside the logs is not telemetry to read
    if (e.isDirectory()) {
      if (e.name !== INDEX_DIR_NAME && e.name !== STORE_DIR_NAME) await walk(full, out);
    } else if (e.isFile() && TELEMETRY_EXTENSIONS.includes(extname(e.name))) {
      const st = await stat(full);
      out.set(full, st.size);
    }
  }
}
