/**
 * The index kept beside a run's logs (`.gym-trace-index/<inputs hash>/`): the partition files of
 * `build-partitions.ts` and a manifest naming the inputs they came from. It is built on first use
 * and rebuilt when an input file changes size or time, or when the set of inputs changes; it can
 * be deleted at any time. Where the logs' directory is not writable it goes to a temporary
 * directory and is removed after the command.
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { INDEX_DIR_NAME } from '../read/expand-paths.js';
import type { InputFile } from '../read/expand-paths.js';
import type { ReadStats } from '../read/read-stats.js';
import { buildPartitions, InputChangedError } from './build-partitions.js';
import { buildPartitionsInWorker } from './build-in-worker.js';

/** Target size of one partition file: small enough that one rollout's partition reads in well under a second. */
export const PARTITION_TARGET_BYTES = 16 * 1024 * 1024;

/** Most partition files of one index (each is an open file while the index is built). */
export const MAX_PARTITIONS = 512;

/** A trace with more spans than this is split into the subtrees under its root (one per rollout under `gym.job`). */
export const LARGE_TRACE_SPANS = 10_000;

/** Options of {@link openIndex} (used when it is built). */
export interface IndexOptions {
  /** About one partition per this many bytes of input. Default {@link PARTITION_TARGET_BYTES}. */
  partitionTargetBytes?: number;
  /** Default {@link LARGE_TRACE_SPANS}. */
  largeTraceSpans?: number;
  /** Build in a worker thread, whose memory goes when it ends (`build-in-worker.ts`). Default false. */
  buildInThread?: boolean;
}

const MANIFEST = 'manifest.txt';
// 5: partitions may have a compact spans file beside them (`<i>.spans`, see `compact-spans.ts`);
// 6: those files hold columns (binary) instead of a JSON document
const VERSION = 6;
const BUILD_ATTEMPTS = 3;

/** One input as the index recorded it. */
export interface IndexedInput {
  path: string;
  bytes: number;
  mtimeMs: number;
}

/** An index ready to read. */
export interface PartitionIndex {
  dir: string;
  inputs: IndexedInput[];
  /** The inputs as this command was given them (relative paths stay relative in messages). */
  givenPaths: string[];
  partitionBytes: number[];
  /** Counters of the split pass (lines, skipped, metrics, malformed); spans are counted on reading. */
  stats: ReadStats;
  /** True when it was built by this call (else it was reused). */
  built: boolean;
  /** True when it lives in a temporary directory that {@link closeIndex} removes. */
  temporary: boolean;
}

interface Manifest {
  version: number;
  inputs: IndexedInput[];
  partitionBytes: number[];
  stats: ReadStats;
}

/**
 * Opens the index of `files` (as listed by `expandPaths`), building it when it is missing or stale.
 * `anchor` is the first path the user gave: the index goes into it (a directory) or beside it (a file).
 */
export async function openIndex(files: readonly InputFile[], anchor: string, options: IndexOptions = {}): Promise<PartitionIndex> {
  const partitionTargetBytes = options.partitionTargetBytes ?? PARTITION_TARGET_BYTES;
  const inputs: IndexedInput[] = [];
  for (const f of files) {
    const st = await stat(f.path);
    inputs.push({ path: resolve(f.path), bytes: st.size, mtimeMs: st.mtimeMs });
  }
  const key = createHash('sha256')
    .update(inputs.map((i) => i.path).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const anchorStat = await stat(anchor);
  const base = join(anchorStat.isDirectory() ? anchor : dirname(anchor), INDEX_DIR_NAME);
  const dir = join(base, key);
  const existing = await readManifest(dir);
  const givenPaths = files.map((f) => f.path);
  if (existing !== null && sameInputs(existing.inputs, inputs)) return { dir, ...existing, givenPaths, built: false, temporary: false };
  // Built in a directory of its own and renamed into place: two commands indexing the same logs at
  // once never read a half-written index.
  let target = `${dir}.building-${process.pid}`;
  let temporary = false;
  try {
    await rm(target, { recursive: true, force: true });
    await mkdir(target, { recursive: true });
  } catch {
    target = mkdtempSync(join(tmpdir(), 'gym-trace-index-'));
    temporary = true;
  }
  const total = inputs.reduce((n, i) => n + i.bytes, 0);
  const partitions = Math.min(MAX_PARTITIONS, Math.max(1, Math.ceil(total / partitionTargetBytes)));
  // Each file is read up to the size it had when the build started (logs are only appended to):
  // both passes see the same spans even while a run writes on, and the next command rebuilds.
  const sized = files.map((f, i) => ({ path: f.path, bytes: inputs[i]!.bytes }));
  for (let attempt = 1; ; attempt++) {
    try {
      const build = options.buildInThread === true ? buildPartitionsInWorker : buildPartitions;
      const built = await build(sized, target, { partitions, largeTraceSpans: options.largeTraceSpans ?? LARGE_TRACE_SPANS });
      const manifest: Manifest = { version: VERSION, inputs, ...built };
      // the manifest is written last: a build cut short leaves no manifest and is redone
      await writeFile(join(target, MANIFEST), JSON.stringify(manifest));
      if (temporary) return { dir: target, ...manifest, givenPaths, built: true, temporary };
      try {
        await rm(dir, { recursive: true, force: true });
        await rename(target, dir);
        return { dir, ...manifest, givenPaths, built: true, temporary: false };
      } catch {
        // another command put its index in place first: read ours, then remove it
        return { dir: target, ...manifest, givenPaths, built: true, temporary: true };
      }
    } catch (err) {
      // a file shrank or was rewritten between the two passes: read it again
      if (attempt < BUILD_ATTEMPTS && err instanceof InputChangedError) continue;
      await rm(target, { recursive: true, force: true });
      throw err;
    }
  }
}

/** Removes a temporary index; a kept one stays for the next command. */
export async function closeIndex(index: PartitionIndex): Promise<void> {
  if (index.temporary) await rm(index.dir, { recursive: true, force: true });
}

async function readManifest(dir: string): Promise<Omit<Manifest, 'version'> | null> {
  try {
    const m = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
    return m.version === VERSION ? m : null;
  } catch {
    return null;
  }
}

function sameInputs(a: readonly IndexedInput[], b: readonly IndexedInput[]): boolean {
  return a.length === b.length && a.every((x, i) => x.path === b[i]!.path && x.bytes === b[i]!.bytes && x.mtimeMs === b[i]!.mtimeMs);
}
