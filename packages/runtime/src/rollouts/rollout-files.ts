/**
 * The files of a collection run and their writers. Every record is one line written on an open
 * descriptor (`O_APPEND`), nothing buffered in the process: an interrupted run leaves files
 * `--resume` can read. A write that fails part-way (a full disk) never leaves a partial line in
 * front of the next record: the file is cut back to its last complete line, or, should that fail
 * too, the next record begins on a fresh line; the record is counted as lost. Every line is
 * scrubbed of the configured secrets (`config/secret-scrub.ts`).
 * @module
 */
import { closeSync, constants, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { scrubJsonText } from '@gym/server/internal/config/secret-scrub.js';
import { RolloutOutputError } from './errors.js';
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

/** Why a write failed: the errno code and a sentence naming a full disk as such. */
export interface WriteFailure {
  code: string;
  /** `no space left on device (ENOSPC)`, `disk quota exceeded (EDQUOT)`, or the error's own message. */
  reason: string;
}

/** A failed file operation as a {@link WriteFailure}. */
export function writeFailure(error: unknown): WriteFailure {
  const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
  if (code === 'ENOSPC') return { code, reason: 'no space left on device (ENOSPC): the disk is full' };
  if (code === 'EDQUOT') return { code, reason: 'disk quota exceeded (EDQUOT)' };
  return { code, reason: (error as Error).message };
}

/** Records an appender could not write. */
export interface AppendLosses {
  records: number;
  /** The failure of the last one. */
  last?: WriteFailure;
}

/** An append-only JSONL file. */
export interface JsonlAppender {
  readonly path: string;
  /**
   * Appends one record as one line. Returns false when it could not be written: nothing of it
   * stays in front of the next record, and it is counted in {@link losses}.
   */
  append(record: JsonObject): boolean;
  /** What could not be written so far. */
  losses(): AppendLosses;
  /** Closes the descriptor. Idempotent. */
  close(): void;
}

/** Whether the file open as `fd` (of `size` bytes) ends in the middle of a line. */
function endsMidLine(fd: number, size: number): boolean {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
}

/**
 * Opens `path` for appending (`replace: true` truncates it first), creating its directory; numbers
 * under `floatKeys` are written as Python floats. A file that ends mid-line (a writer killed
 * mid-write) gets its next record on a fresh line.
 * @throws {RolloutOutputError} `GYM_ROLLOUT_OUTPUT_WRITE` when the file cannot be opened.
 */
export function openJsonlAppender(path: string, options: { replace?: boolean; floatKeys?: ReadonlySet<string> } = {}): JsonlAppender {
  let fd: number | undefined;
  let size: number;
  let freshLine: boolean;
  try {
    mkdirSync(dirname(path), { recursive: true });
    // O_APPEND either way: after a failed write is cut back, the next one lands at the new end
    fd = openSync(path, options.replace === true ? constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC | constants.O_APPEND : 'a+', 0o644);
    size = fstatSync(fd).size;
    freshLine = endsMidLine(fd, size);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    throw outputError(path, 'open', error);
  }
  const losses: AppendLosses = { records: 0 };
  return {
    path,
    append(record) {
      if (fd === undefined) throw new Error(`JSONL file ${path} is closed`);
      const json = options.floatKeys === undefined ? JSON.stringify(record) : stringifyWithFloats(record, options.floatKeys);
      const line = Buffer.from(`${freshLine ? '\n' : ''}${scrubJsonText(json)}\n`, 'utf8');
      let written = 0;
      try {
        while (written < line.length) written += writeSync(fd, line, written, line.length - written);
      } catch (error) {
        losses.records++;
        losses.last = writeFailure(error);
        if (written > 0) {
          try {
            // cutting a file back frees space: this works on a full disk
            ftruncateSync(fd, size);
          } catch {
            size += written;
            freshLine = true;
          }
        }
        return false;
      }
      size += line.length;
      freshLine = false;
      return true;
    },
    losses: () => ({ ...losses }),
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** A run file that cannot be written, as the user error it is (a full disk named as such). */
function outputError(path: string, what: string, error: unknown): RolloutOutputError {
  return new RolloutOutputError(`Cannot ${what} ${path}: ${writeFailure(error).reason}. Free space or choose another output path (-o), then run again (--resume continues a run).`, {
    cause: error,
  });
}

/** Writes `records` as a whole JSONL file, atomically (temp file + rename). */
export function writeJsonlFile(path: string, records: readonly JsonObject[]): void {
  writeTextFile(path, records.map((r) => `${scrubJsonText(JSON.stringify(r))}\n`).join(''));
}

/** Writes `text` to `path` atomically (temp file + rename), creating its directory. */
export function writeTextFile(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(tmp, 'w');
    try {
      writeFully(fd, Buffer.from(text, 'utf8'));
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw outputError(path, 'write', error);
  }
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
