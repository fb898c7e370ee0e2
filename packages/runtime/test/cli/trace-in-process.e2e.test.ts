// With a current build, a `gym trace` command runs in the `gym` process itself (no CLI child, one
// Node start-up): a Ctrl-C during its store conversion still ends it with 130 and leaves no
// temporary file, no lock and no part the manifest does not list.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { interruptWhileConverting, runToInterrupt, STORE, unlistedStoreFiles } from '../../../trace/test/support/interrupted-store.js';
import { childPids, GYM_BIN, REPO_ROOT } from '../support/gym-process.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

describe('gym trace with a current build', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  before(() => {
    execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-b'], { cwd: REPO_ROOT, stdio: 'inherit' });
  });

  it('converts in the gym process; Ctrl-C ends it with 130 and leaves no unfinished file', async () => {
    const run = runToInterrupt();
    cleanups.push(run.cleanup);
    const gym = spawn(process.execPath, [GYM_BIN, 'trace', 'stats', run.dir], { cwd: REPO_ROOT });
    const { code, stderr } = await interruptWhileConverting(gym, run.dir, () => assert.deepEqual(childPids(gym.pid!), [], 'the gym process converts itself, without a CLI child'));
    assert.equal(code, 130, stderr);
    assert.match(stderr, /gym trace: interrupted; the trace store keeps what was finished/);
    // a lock left behind would be listed too
    assert.deepEqual(unlistedStoreFiles(join(run.dir, STORE)), [], 'only the manifest and the parts it lists are left');
  });
});
