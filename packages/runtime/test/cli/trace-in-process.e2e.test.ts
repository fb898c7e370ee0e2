// With a current build, a `gym trace` command runs in the `gym` process itself (no CLI child, one
// Node start-up): a Ctrl-C during its store conversion still ends it with 130 and leaves no
// temporary file, no lock and no part the manifest does not list.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { watch } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { consoleLine, defaultPresetSpans, tempDir } from '../../../trace/test/support/fixtures.js';
import { childPids, GYM_BIN, REPO_ROOT } from '../support/gym-process.js';

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

describe('gym trace with a current build', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  before(() => {
    execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-b'], { cwd: REPO_ROOT, stdio: 'inherit' });
  });

  it('converts in the gym process; Ctrl-C ends it with 130 and leaves no unfinished file', async () => {
    // four files of a few MiB: the first one's spans part is written long before the last file is done
    const lines = defaultPresetSpans(Array.from({ length: 40 }, (_, i) => `${i}-0`)).map(consoleLine);
    const text = Array.from({ length: 20 }, () => lines.join('\n')).join('\n') + '\n';
    const run = tempDir({ 'a.log': text, 'b.log': text, 'c.log': text, 'd.log': text });
    cleanups.push(run.cleanup);
    const store = join(run.dir, STORE);
    const gym = spawn(process.execPath, [GYM_BIN, 'trace', 'stats', run.dir], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    gym.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = once(gym, 'exit');
    try {
      await whenChanged(run.dir, () => existsSync(store));
      await whenChanged(store, () => readdirSync(store).some((f) => /^spans-\d+\.parquet$/.test(f)));
      assert.deepEqual(childPids(gym.pid!), [], 'the gym process converts itself, without a CLI child');
      gym.kill('SIGINT');
      const [code] = (await exited) as [number | null];
      assert.equal(code, 130, err);
      assert.match(err, /gym trace: interrupted; the trace store keeps what was finished/);
    } finally {
      if (gym.exitCode === null && gym.signalCode === null) gym.kill('SIGKILL');
    }
    const listed = new Set<string>();
    if (existsSync(join(store, 'manifest.json'))) {
      const m = JSON.parse(readFileSync(join(store, 'manifest.json'), 'utf8')) as { files: { chunks: { n: number; bytes: Record<string, number> }[] }[] };
      for (const f of m.files) for (const c of f.chunks) for (const t of Object.keys(c.bytes)) listed.add(`${t}-${c.n}.parquet`);
    }
    assert.deepEqual(
      readdirSync(store).filter((f) => f !== 'manifest.json' && !listed.has(f)),
      [],
      'only the manifest and the parts it lists are left',
    );
  });
});
