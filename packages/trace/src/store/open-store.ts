/**
 * Opens the Parquet store of a run, converting first what it does not hold yet: files that are new
 * or grew since the last command (only their new whole lines), files rewritten since (again, whole).
 * The store lives beside the logs (`<dir>/.gym-trace-store/`), or under `GYM_TRACE_STORE_DIR` (one
 * directory per run), or, where neither can be written, in a temporary directory removed after
 * the command. It can be moved away or deleted at any time: the next command rebuilds it.
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { expandPaths, STORE_DIR_NAME } from '../read/expand-paths.js';
import { emptyReadStats, MAX_MALFORMED_EXAMPLES } from '../read/read-stats.js';
import type { ReadStats } from '../read/read-stats.js';
import { onOneThread, openDuck } from './duck.js';
import type { Duck, DuckSettings } from './duck.js';
import { convertFast, partSizes } from './fast-range.js';
import type { RangeTarget } from './fast-range.js';
import { convertWithReader } from './record-range.js';
import { writeRolloutIndex } from './rollout-index.js';
import { scanRange } from './scan-range.js';
import { isAlive, LOCK_FILE, takeLock } from './store-lock.js';
import { stoppable } from './stop-conversion.js';
import { emptyCounts, emptyManifest, MANIFEST_FILE, partPath, PART_TABLES, readManifest, writeManifest } from './store-manifest.js';
import type { FileCounts, StoredFile, StoreManifest } from './store-manifest.js';

export { STORE_DIR_NAME };

/** Environment variable: a directory to keep stores in instead (one subdirectory per run). */
export const STORE_DIR_ENV = 'GYM_TRACE_STORE_DIR';

/** Where messages go (a command's stderr). */
export interface StoreOutput {
  error(text: string): void;
  errorIsTTY?: boolean;
}

/** An open store: the DuckDB connection over it, and the files of this command's input. */
export interface TraceStore {
  dir: string;
  duck: Duck;
  /** The input files as the store holds them, in input order. */
  files: StoredFile[];
  /** Each stored (absolute) path's spelling as the user gave it, for messages. */
  givenPath: Map<string, string>;
  /** The reader's counters over the input. */
  stats: ReadStats;
  /** Whether this command converted anything. */
  converted: boolean;
  /** The Parquet parts of `table` for the input's files, in input order. */
  parts(table: (typeof PART_TABLES)[number]): string[];
  close(): Promise<void>;
}

/** Options of {@link openStore}. */
export interface OpenStoreOptions extends DuckSettings {
  /** Messages are printed only to a terminal, above this many bytes to convert. Default 100 MiB. */
  progressBytes?: number;
}

const HEAD_BYTES = 4096;
/** A store's spill directory: `spill-<pid>-<n>.tmp`, `n` counting the stores this process opened. */
const SPILL_NAME = /^spill-(\d+)-\d+\.tmp$/;
let spillCount = 0;

/**
 * Opens (converting what is new) the store of the files in `paths`.
 * @throws TraceUserError `GYM_TRACE_PATH_NOT_FOUND` for a missing path.
 */
export async function openStore(paths: readonly string[], out: StoreOutput, options: OpenStoreOptions = {}): Promise<TraceStore> {
  const inputs = await expandPaths(paths);
  const { dir, temporary } = await storeDirectory(paths[0]!);
  // a spill directory per command: DuckDB names its temporary files alike in every instance, so two
  // commands on one store sharing one directory removed each other's
  const spill = join(dir, `spill-${process.pid}-${spillCount++}.tmp`);
  const duck = await openDuck({ ...options, tempDirectory: spill });
  try {
    let manifest = await loadManifest(dir, out);
    let converted = false;
    if ((await pendingWork(inputs, manifest)).length > 0) {
      const lock = await takeLock(join(dir, LOCK_FILE), (pid) => out.error(`waiting for another gym trace command (pid ${pid}) that is adding to the store in ${dir}\n`));
      try {
        // it may have done our work meanwhile
        manifest = await loadManifest(dir, out);
        await removeStrays(dir, manifest);
        const work = await pendingWork(inputs, manifest);
        if (work.length > 0) {
          converted = true;
          // on one thread: the read is numbered line by line (one ordered stream whatever the threads),
          // and a second thread only added CPU (about a sixth, measured side by side) for about the same wall time
          await onOneThread(duck.connection, () => stoppable(duck, (stopped) => convertAll(duck, dir, manifest, work, out, options.progressBytes ?? 100 * 1024 * 1024, stopped)));
        }
      } finally {
        await lock.release();
      }
    }
    const byPath = new Map(manifest.files.map((f) => [f.path, f]));
    const files = inputs.map((i) => byPath.get(resolve(i.path))!);
    const givenPath = new Map(inputs.map((i) => [resolve(i.path), i.path]));
    return {
      dir,
      duck,
      files,
      givenPath,
      stats: statsOf(files, givenPath),
      converted,
      parts: (table) => files.flatMap((f) => f.chunks.map((c) => partPath(dir, table, c.n))),
      async close() {
        duck.close();
        await rm(temporary ? dir : spill, { recursive: true, force: true });
      },
    };
  } catch (err) {
    duck.close();
    await rm(temporary ? dir : spill, { recursive: true, force: true });
    throw err;
  }
}

async function storeDirectory(anchor: string): Promise<{ dir: string; temporary: boolean }> {
  const st = await stat(anchor);
  const runDir = resolve(st.isDirectory() ? anchor : dirname(anchor));
  const base = process.env[STORE_DIR_ENV];
  const dir = base === undefined || base === '' ? join(runDir, STORE_DIR_NAME) : join(base, createHash('sha256').update(runDir).digest('hex').slice(0, 16));
  try {
    await mkdir(dir, { recursive: true });
    const probe = await open(join(dir, `.probe-${process.pid}`), 'w');
    await probe.close();
    await rm(join(dir, `.probe-${process.pid}`));
    return { dir, temporary: false };
  } catch {
    return { dir: mkdtempSync(join(tmpdir(), 'gym-trace-store-')), temporary: true };
  }
}

async function loadManifest(dir: string, out: StoreOutput): Promise<StoreManifest> {
  const m = await readManifest(dir);
  if (typeof m !== 'string') return m ?? emptyManifest();
  out.error(`warning: the trace store in ${dir} cannot be used (${m}); rebuilding it\n`);
  await rm(join(dir, MANIFEST_FILE), { force: true });
  return emptyManifest();
}

/** Parts and temporary files no manifest lists: left by a conversion that was cut short. */
async function removeStrays(dir: string, manifest: StoreManifest): Promise<void> {
  const listed = new Set(manifest.files.flatMap((f) => f.chunks.flatMap((c) => PART_TABLES.map((t) => `${t}-${c.n}.parquet`))));
  for (const name of await readdir(dir)) {
    if (name === MANIFEST_FILE || name === LOCK_FILE || listed.has(name)) continue;
    // another command's spill directory stays while that command runs
    const spillOf = SPILL_NAME.exec(name);
    if (spillOf !== null && isAlive(Number(spillOf[1]))) continue;
    if (name.endsWith('.parquet') || name.includes('.tmp')) await rm(join(dir, name), { recursive: true, force: true });
  }
}

interface Work {
  path: string;
  size: number;
  mtimeMs: number;
  /** Convert from here; 0 with `restart` when the stored chunks are dropped first. */
  from: number;
  restart: boolean;
}

async function pendingWork(inputs: ReadonlyArray<{ path: string }>, manifest: StoreManifest): Promise<Work[]> {
  const byPath = new Map(manifest.files.map((f) => [f.path, f]));
  const work: Work[] = [];
  for (const input of inputs) {
    const path = resolve(input.path);
    const st = await stat(path);
    const stored = byPath.get(path);
    const w = { path, size: st.size, mtimeMs: st.mtimeMs };
    if (stored === undefined) work.push({ ...w, from: 0, restart: false });
    else if (st.size < stored.offset || (await headOf(path, stored.offset)) !== stored.head) work.push({ ...w, from: 0, restart: true });
    else if (st.size > stored.size || (st.size > stored.offset && st.mtimeMs !== stored.mtimeMs)) work.push({ ...w, from: stored.offset, restart: false });
  }
  return work;
}

async function headOf(path: string, upTo: number): Promise<string> {
  const n = Math.min(HEAD_BYTES, upTo);
  const buf = Buffer.alloc(n);
  const f = await open(path, 'r');
  try {
    await f.read(buf, 0, n, 0);
  } finally {
    await f.close();
  }
  return createHash('sha256').update(buf).digest('hex');
}

async function convertAll(duck: Duck, dir: string, manifest: StoreManifest, work: Work[], out: StoreOutput, progressBytes: number, stopped: () => boolean): Promise<void> {
  const total = work.reduce((n, w) => n + w.size - w.from, 0);
  const tell = out.errorIsTTY === true && total >= progressBytes;
  const started = Date.now();
  let done = 0;
  for (const [i, w] of work.entries()) {
    if (tell) out.error(`\rconverting the logs into the trace store: file ${i + 1}/${work.length}, ${mib(done)} / ${mib(total)} MiB`);
    let stored = manifest.files.find((f) => f.path === w.path);
    if (stored === undefined || w.restart) {
      manifest.files = manifest.files.filter((f) => f.path !== w.path);
      stored = { path: w.path, size: 0, mtimeMs: 0, offset: 0, lines: 0, head: '', chunks: [], counts: emptyCounts() };
      manifest.files.push(stored);
    }
    const chunk = manifest.nextChunk++;
    const target: RangeTarget = { dir, chunk, file: w.path, linesBefore: stored.lines, earlierResources: stored.chunks.map((c) => partPath(dir, 'resources', c.n)) };
    const { to, lines, counts } = await removedOnError(dir, chunk, async () => {
      const range = await convertRange(duck, w, target, stopped);
      if (stopped()) throw new Error('stopped');
      if (range.to > w.from) await writeRolloutIndex(duck.connection, dir, chunk);
      return range;
    });
    if (to > w.from) {
      stored.chunks.push({ n: chunk, from: w.from, to, bytes: await partSizes(dir, chunk) });
      addCounts(stored.counts, counts);
    }
    stored.size = w.size;
    stored.mtimeMs = w.mtimeMs;
    stored.offset = to;
    stored.lines += lines;
    stored.head = await headOf(w.path, to);
    // each file's work is published on its own: a command cut short keeps what it finished
    await writeManifest(dir, manifest);
    done += w.size - w.from;
  }
  if (tell) out.error(`\rconverted ${mib(total)} MiB of logs into the trace store in ${((Date.now() - started) / 1000).toFixed(1)}s (${dir}; deleted or moved, it is rebuilt)\n`);
}

/** `convert()`, whose chunk's parts are removed if it fails or is stopped: a chunk not published leaves no strays. */
async function removedOnError<T>(dir: string, chunk: number, convert: () => Promise<T>): Promise<T> {
  try {
    return await convert();
  } catch (err) {
    await Promise.all(PART_TABLES.map((t) => rm(partPath(dir, t, chunk), { force: true })));
    throw err;
  }
}

async function convertRange(duck: Duck, w: Work, target: RangeTarget, stopped: () => boolean): Promise<{ to: number; lines: number; counts: FileCounts }> {
  const c = duck.connection;
  const copy = join(target.dir, `range-${target.chunk}.tmp.jsonl`);
  const side = join(target.dir, `side-${target.chunk}.tmp.jsonl`);
  try {
    // a whole file that ends with its last line is read by DuckDB in place; any other range is
    // copied out by the scan
    const inPlace = w.from === 0 && (await endsWithNewline(w.path, w.size));
    const s = await scanRange(w.path, w.from, w.size, { copyTo: inPlace ? undefined : copy, sideTo: side, stopped });
    if (s.to === w.from) return { to: w.from, lines: 0, counts: emptyCounts() };
    const fast = s.compactObjects ? await convertFast(c, inPlace ? w.path : copy, side, target, s) : null;
    if (fast?.ok === true) return { to: s.to, lines: s.lines, counts: fast.counts };
    return { to: s.to, lines: s.lines, counts: await convertWithReader(c, w.path, w.from, s.to, target) };
  } finally {
    await rm(copy, { force: true });
    await rm(side, { force: true });
  }
}

async function endsWithNewline(path: string, size: number): Promise<boolean> {
  if (size === 0) return false;
  const f = await open(path, 'r');
  try {
    const b = Buffer.alloc(1);
    await f.read(b, 0, 1, size - 1);
    return b[0] === 10;
  } finally {
    await f.close();
  }
}

function addCounts(into: FileCounts, c: FileCounts): void {
  into.linesRead += c.linesRead;
  into.spans += c.spans;
  into.skippedLines += c.skippedLines;
  into.metricRecords += c.metricRecords;
  into.malformedLines += c.malformedLines;
  for (const e of c.malformedExamples) if (into.malformedExamples.length < MAX_MALFORMED_EXAMPLES) into.malformedExamples.push(e);
  into.formats.console += c.formats.console;
  into.formats.python += c.formats.python;
  into.formats.otlp += c.formats.otlp;
}

function statsOf(files: readonly StoredFile[], givenPath: ReadonlyMap<string, string>): ReadStats {
  const s = emptyReadStats();
  for (const f of files) {
    s.files++;
    s.bytes += f.offset;
    const { malformedExamples, formats, ...counts } = f.counts;
    s.linesRead += counts.linesRead;
    s.spans += counts.spans;
    s.skippedLines += counts.skippedLines;
    s.metricRecords += counts.metricRecords;
    s.malformedLines += counts.malformedLines;
    for (const e of malformedExamples) if (s.malformedExamples.length < MAX_MALFORMED_EXAMPLES) s.malformedExamples.push({ ...e, file: givenPath.get(e.file) ?? e.file });
    s.formats.console += formats.console;
    s.formats.python += formats.python;
    s.formats.otlp += formats.otlp;
  }
  return s;
}

function mib(bytes: number): string {
  return (bytes / 1048576).toFixed(0);
}
