// For the tests that stop a store conversion with a signal: a run large enough to be stopped in
// the middle, a wait for the conversion's first part, and what the store holds besides what its
// manifest lists.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { watch } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../../src/store/store-manifest.js';
import type { StoreManifest } from '../../src/store/store-manifest.js';
import { consoleLine, defaultPresetSpans, tempDir } from './fixtures.js';

/** The store folder a `gym trace` command writes next to a run's files. */
export const STORE = '.gym-trace-store';

/** Four files of a few MiB of compact lines: the first one's spans part is written long before the last file is done. */
export function runToInterrupt(): { dir: string; cleanup: () => void } {
  const lines = defaultPresetSpans(Array.from({ length: 40 }, (_, i) => `${i}-0`)).map(consoleLine);
  const text = Array.from({ length: 20 }, () => lines.join('\n')).join('\n') + '\n';
  return tempDir({ 'a.log': text, 'b.log': text, 'c.log': text, 'd.log': text });
}

/** Resolves once `ready()` holds, looking again at every change in `dir`. */
export async function whenChanged(dir: string, ready: () => boolean): Promise<void> {
  const stop = new AbortController();
  const changes = watch(dir, { signal: stop.signal });
  try {
    if (ready()) return;
    for await (const _ of changes) if (ready()) return;
  } catch (err) {
    if ((err as Error).name !== 'AbortError') throw err;
  } finally {
    stop.abort();
  }
}

/** Resolves once the conversion into `runDir`'s store has written its first spans part. */
export async function whenFirstPartWritten(runDir: string): Promise<void> {
  const store = join(runDir, STORE);
  await whenChanged(runDir, () => existsSync(store));
  await whenChanged(store, () => readdirSync(store).some((f) => /^spans-\d+\.parquet$/.test(f)));
}

/**
 * Sends `child` (a `gym trace` command converting `runDir`) SIGINT once the first spans part is
 * written, `check` run just before, and resolves with its exit code and stderr.
 */
export async function interruptWhileConverting(child: ChildProcessWithoutNullStreams, runDir: string, check: () => void = () => undefined): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit');
  try {
    await whenFirstPartWritten(runDir);
    check();
    child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    return { code, stderr };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** The files in `store` other than its manifest and the parts it lists (a lock, a temporary file, an unfinished part). */
export function unlistedStoreFiles(store: string): string[] {
  const listed = new Set<string>();
  if (existsSync(join(store, MANIFEST_FILE))) {
    const m = JSON.parse(readFileSync(join(store, MANIFEST_FILE), 'utf8')) as StoreManifest;
    for (const f of m.files) for (const c of f.chunks) for (const t of Object.keys(c.bytes)) listed.add(`${t}-${c.n}.parquet`);
  }
  return readdirSync(store).filter((f) => f !== MANIFEST_FILE && !listed.has(f));
}
