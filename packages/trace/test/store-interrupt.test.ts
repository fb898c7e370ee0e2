// Ctrl-C during a conversion (`src/store/stop-conversion.ts`): a real `gym trace` child process,
// sent SIGINT once the conversion has written its first part, ends with 130 and leaves no
// temporary file, no spill directory, no lock and no part that the manifest does not list.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { watch } from 'node:fs/promises';
import { join } from 'node:path';
import { LOCK_FILE } from '../src/store/store-lock.js';
import { MANIFEST_FILE } from '../src/store/store-manifest.js';
import type { StoreManifest } from '../src/store/store-manifest.js';
import { consoleLine, defaultPresetSpans, tempDir } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

const STORE = '.gym-trace-store';

/** Resolves once `ready()` holds, looking again at every change in `dir`. */
async function whenChanged(dir: string, ready: () => boolean): Promise<void> {
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

describe('a conversion stopped by Ctrl-C', () => {
  it('ends with 130 and leaves no temporary files, spill directory, lock or unlisted part', async () => {
    // four files of a few MiB of compact lines: the first one's spans part is written long before the last file is done
    const lines = defaultPresetSpans(Array.from({ length: 40 }, (_, i) => `${i}-0`)).map(consoleLine);
    const text = Array.from({ length: 20 }, () => lines.join('\n')).join('\n') + '\n';
    const run = tempDir({ 'a.log': text, 'b.log': text, 'c.log': text, 'd.log': text });
    cleanups.push(run.cleanup);
    const store = join(run.dir, STORE);
    const main = join(import.meta.dirname, 'support', 'cli-main.ts');
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main, 'trace', 'stats', run.dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = once(child, 'exit');
    try {
      await whenChanged(run.dir, () => existsSync(store));
      await whenChanged(store, () => readdirSync(store).some((f) => /^spans-\d+\.parquet$/.test(f)));
      child.kill('SIGINT');
      const [code] = (await exited) as [number | null];
      assert.equal(code, 130, err);
      assert.match(err, /gym trace: interrupted; the trace store keeps what was finished/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    const listed = new Set<string>();
    if (existsSync(join(store, MANIFEST_FILE))) {
      const m = JSON.parse(readFileSync(join(store, MANIFEST_FILE), 'utf8')) as StoreManifest;
      for (const f of m.files) for (const c of f.chunks) for (const t of Object.keys(c.bytes)) listed.add(`${t}-${c.n}.parquet`);
    }
    const left = readdirSync(store).filter((f) => f !== MANIFEST_FILE && !listed.has(f));
    assert.deepEqual(left, [], 'only the manifest and the parts it lists are left');
    assert.equal(existsSync(join(store, LOCK_FILE)), false);
  });
});
