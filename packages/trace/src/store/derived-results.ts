/**
 * Derived results kept in the store (`derived/` beside the parts): what a command computed from
 * the whole run in JavaScript — the rollout time split `stats` sums, the answer of `anomalies`,
 * `why --all`, the data of `report` — so that the next command over the same store reads it
 * instead of walking every span again. A result is named after what it answers (the command and
 * its options, the input's files as given), the store's parts of those files, and the code that
 * computed it: a file that grows (new parts), another option or another build of gym names
 * another result, and the results of the same question over older parts are removed when the new
 * one is written. Deleting `derived/` only costs the next command the walk.
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TraceStore } from './open-store.js';

/** Directory of derived results in the store. */
export const DERIVED_DIR = 'derived';

/** Where one derived result lives, and the prefix the results of the same question share. */
export interface DerivedFile {
  file: string;
  question: string;
}

/**
 * The file of the result `name` (with `options`, JSON-able) over the store's input, `ext` its
 * extension. Reads the code's fingerprint once per process.
 */
export async function derivedFile(store: TraceStore, name: string, options: unknown, ext: string): Promise<DerivedFile> {
  const question = `${name}-${hash([await codeFingerprint(), options, store.files.map((f) => f.path), [...store.givenPath]])}`;
  const parts = hash(store.files.map((f) => [f.offset, f.chunks.map((c) => [c.n, c.from, c.to, c.bytes])]));
  return { file: join(store.dir, DERIVED_DIR, `${question}-${parts}.${ext}`), question };
}

/**
 * The result `name` (with `options`) over the store: read from `derived/` when it is there, else
 * `compute`d and written. Values round-trip through JSON (bigints tagged): a result must hold no
 * Map, Set, typed array or undefined that its readers tell from JSON's.
 */
export async function derivedResult<T>(store: TraceStore, name: string, options: unknown, compute: () => Promise<T>): Promise<T> {
  const where = await derivedFile(store, name, options, 'json');
  const text = await readFile(where.file, 'utf8').catch(() => null);
  if (text !== null) {
    try {
      return JSON.parse(text, revive) as T;
    } catch {
      // a damaged file is computed again and replaced
    }
  }
  const value = await compute();
  await publishDerived(where, async (tmp) => writeFile(tmp, JSON.stringify(value, replace)));
  return value;
}

/**
 * Writes a result through `write` (to a temporary file), renames it into place and removes the
 * results of the same question over other parts. A store that cannot take it is left as it is:
 * the command has its answer, and the next one computes it again.
 */
export async function publishDerived(where: DerivedFile, write: (tmp: string) => Promise<void>): Promise<void> {
  const dir = dirname(where.file);
  const tmp = `${where.file}.${process.pid}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await write(tmp);
    // published whole: a command reading meanwhile sees no file or the whole of it
    await rename(tmp, where.file);
    for (const name of await readdir(dir)) if (name.startsWith(`${where.question}-`) && join(dir, name) !== where.file && !name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
  } catch {
    // not kept (see above)
  } finally {
    await rm(tmp, { force: true });
  }
}

/** True when the derived file exists. */
export async function derivedExists(where: DerivedFile): Promise<boolean> {
  return stat(where.file).then(
    () => true,
    () => false,
  );
}

function hash(v: unknown): string {
  return createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 16);
}

let fingerprint: Promise<string> | undefined;

/**
 * The build of this package that runs: its files' names, sizes and modification times (the
 * sources under `src/` or the build under `dist/`), so a result computed by other code is not read.
 */
function codeFingerprint(): Promise<string> {
  fingerprint ??= (async () => {
    const root = dirname(dirname(fileURLToPath(import.meta.url)));
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    files.sort();
    const stats = await Promise.all(files.map(async (f) => stat(f).then((s) => [f.slice(root.length), s.size, s.mtimeMs])));
    return hash(stats);
  })();
  return fingerprint;
}

function replace(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? { $bigint: v.toString() } : v;
}

function revive(_key: string, v: unknown): unknown {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const big = (v as { $bigint?: unknown }).$bigint;
    if (typeof big === 'string' && Object.keys(v).length === 1) return BigInt(big);
  }
  return v;
}
