// Ctrl-C during a conversion (`src/store/stop-conversion.ts`): a real `gym trace` child process,
// sent SIGINT once the conversion has written its first part, ends with 130 and leaves no
// temporary file, no spill directory, no lock and no part that the manifest does not list.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE } from '../src/store/store-lock.js';
import { interruptWhileConverting, runToInterrupt, STORE, unlistedStoreFiles } from './support/interrupted-store.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

describe('a conversion stopped by Ctrl-C', () => {
  it('ends with 130 and leaves no temporary files, spill directory, lock or unlisted part', async () => {
    const run = runToInterrupt();
    cleanups.push(run.cleanup);
    const store = join(run.dir, STORE);
    const main = join(import.meta.dirname, 'support', 'cli-main.ts');
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main, 'trace', 'stats', run.dir], { stdio: ['pipe', 'pipe', 'pipe'] });
    const { code, stderr } = await interruptWhileConverting(child, run.dir);
    assert.equal(code, 130, stderr);
    assert.match(stderr, /gym trace: interrupted; the trace store keeps what was finished/);
    assert.deepEqual(unlistedStoreFiles(store), [], 'only the manifest and the parts it lists are left');
    assert.equal(existsSync(join(store, LOCK_FILE)), false);
  });
});
