/**
 * The store's manifest: which byte range of which input file each set of Parquet parts holds, and
 * the reader's counters per file. Written last, by an atomic rename, so a conversion cut short
 * (Ctrl-C, a crash, a full disk) leaves the previous manifest and parts that nothing lists.
 * @module
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadStats } from '../read/read-stats.js';

/** Manifest file name in the store directory. */
export const MANIFEST_FILE = 'manifest.json';

/** Bumped whenever the Parquet schema or the manifest changes: an older store is rebuilt. */
export const STORE_VERSION = 3;

/** The tables a converted range of a file fills, one Parquet part each. */
export const PART_TABLES = ['spans', 'metrics', 'logs', 'resources', 'rollouts'] as const;

/** One converted byte range of a file. */
export interface StoredChunk {
  /** Number of the chunk, unique in the store: its parts are `<table>-<n>.parquet`. */
  n: number;
  /** Byte range `[from, to)`; `to` is just after the last whole line. */
  from: number;
  to: number;
  /** Sizes of its parts, by table, checked when the store is opened. */
  bytes: Record<(typeof PART_TABLES)[number], number>;
}

/** What the reader counted in a file: a run's `ReadStats` without its file and byte totals. */
export type FileCounts = Omit<ReadStats, 'files' | 'bytes'>;

/** One input file as the store holds it. */
export interface StoredFile {
  /** Absolute path. */
  path: string;
  /** Size and mtime when last converted. */
  size: number;
  mtimeMs: number;
  /** Bytes converted: the next conversion starts here (a last line without newline waits). */
  offset: number;
  /** Lines before `offset`. */
  lines: number;
  /** sha256 of the file's first bytes (up to 4 KiB of the converted range): a rewritten file is converted again. */
  head: string;
  chunks: StoredChunk[];
  counts: FileCounts;
}

/** The manifest. */
export interface StoreManifest {
  version: number;
  nextChunk: number;
  files: StoredFile[];
}

/** An empty manifest. */
export function emptyManifest(): StoreManifest {
  return { version: STORE_VERSION, nextChunk: 1, files: [] };
}

/** Zero counts. */
export function emptyCounts(): FileCounts {
  return { linesRead: 0, spans: 0, skippedLines: 0, metricRecords: 0, malformedLines: 0, malformedExamples: [], formats: { console: 0, python: 0, otlp: 0 } };
}

/** Path of a chunk's part of `table`. */
export function partPath(dir: string, table: (typeof PART_TABLES)[number], chunk: number): string {
  return join(dir, `${table}-${chunk}.parquet`);
}

/**
 * Reads the manifest of `dir`: null when there is none; a reason string when it is unreadable,
 * of another version, or lists a part that is missing or not the size it was written at.
 */
export async function readManifest(dir: string): Promise<StoreManifest | null | string> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    return null;
  }
  let m: StoreManifest;
  try {
    m = JSON.parse(text) as StoreManifest;
  } catch {
    return 'its manifest is not valid JSON';
  }
  if (m.version !== STORE_VERSION || !Array.isArray(m.files)) return `it is of another version (${String(m.version)})`;
  for (const f of m.files)
    for (const c of f.chunks)
      for (const table of PART_TABLES) {
        const size = await stat(partPath(dir, table, c.n)).then(
          (s) => s.size,
          () => -1,
        );
        if (size !== c.bytes[table]) return `${table}-${c.n}.parquet is ${size < 0 ? 'missing' : `${size} bytes, not ${c.bytes[table]}`}`;
      }
  return m;
}

/** Writes `manifest` into `dir` atomically (a temporary file renamed over the old one). */
export async function writeManifest(dir: string, manifest: StoreManifest): Promise<void> {
  const tmp = join(dir, `${MANIFEST_FILE}.${process.pid}.tmp`);
  await writeFile(tmp, JSON.stringify(manifest));
  await rename(tmp, join(dir, MANIFEST_FILE));
}
