/**
 * The files of a collection run and their writers. Every record is one line written with one
 * `write` on an open descriptor (`O_APPEND`), so a line is either wholly in the file or absent,
 * and nothing is buffered in the process: an interrupted run leaves files `--resume` can read.
 * @module
 */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { parseJsonlObjects } from './jsonl.js';
import { stringifyWithFloats } from './python-float.js';
import type { JsonlParse } from './jsonl.js';
import type { JsonObject } from './types.js';

/** The files of one run, all derived from the output path. */
export interface RolloutPaths {
  output: string;
  materializedInputs: string;
  failures: string;
  aggregateMetrics: string;
}

/** The top-level fields of a rollout record the original writes as floats (`"reward": 1.0`). */
export const ROLLOUT_FLOAT_KEYS: ReadonlySet<string> = new Set(['reward']);

/** `<stem>_materialized_inputs.jsonl`, `<stem>_failures.jsonl`, `<stem>_aggregate_metrics.json` next to `output`. */
export function rolloutPaths(output: string): RolloutPaths {
  const dir = dirname(output);
  const stem = basename(output, extname(output));
  return {
    output,
    materializedInputs: join(dir, `${stem}_materialized_inputs.jsonl`),
    failures: join(dir, `${stem}_failures.jsonl`),
    aggregateMetrics: join(dir, `${stem}_aggregate_metrics.json`),
  };
}

/** An append-only JSONL file. */
export interface JsonlAppender {
  readonly path: string;
  /** Appends one record as one line (one `write` call). */
  append(record: JsonObject): void;
  /** Closes the descriptor. Idempotent. */
  close(): void;
}

/** Opens `path` for appending (`replace: true` truncates it first), creating its directory; numbers under `floatKeys` are written as Python floats. */
export function openJsonlAppender(path: string, options: { replace?: boolean; floatKeys?: ReadonlySet<string> } = {}): JsonlAppender {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number | undefined = openSync(path, options.replace === true ? 'w' : 'a');
  return {
    path,
    append(record) {
      if (fd === undefined) throw new Error(`JSONL file ${path} is closed`);
      const line = options.floatKeys === undefined ? JSON.stringify(record) : stringifyWithFloats(record, options.floatKeys);
      writeFully(fd, Buffer.from(`${line}\n`, 'utf8'));
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** Writes `records` as a whole JSONL file, atomically (temp file + rename). */
export function writeJsonlFile(path: string, records: readonly JsonObject[]): void {
  writeTextFile(path, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
}

/** Writes `text` to `path` atomically (temp file + rename), creating its directory. */
export function writeTextFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    writeFully(fd, Buffer.from(text, 'utf8'));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Reads a JSONL file of objects; a missing file reads as empty. Bad lines are returned, not thrown. */
export function readJsonlFile(path: string): JsonlParse {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], malformed: [] };
    throw error;
  }
  return parseJsonlObjects(text);
}

function writeFully(fd: number, buffer: Buffer): void {
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}
