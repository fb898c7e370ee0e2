// Where a server's entrypoint is found: the configured file under the first search root that has
// it; for the original's `app.py`, gym's TypeScript port (`app.ts`) beside it when there is no
// Python file, so the original's configs of servers gym ships start unchanged.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateServer } from '../../src/orchestrator/spawn-server.js';
import type { ServerInstanceConfig } from '../../../server/src/config/types.js';

const root = mkdtempSync(join(tmpdir(), 'gym-locate-'));
after(() => rmSync(root, { recursive: true, force: true }));

function serverDir(implementation: string, files: string[]): string {
  const dir = join(root, 'resources_servers', implementation);
  mkdirSync(dir, { recursive: true });
  for (const file of files) writeFileSync(join(dir, file), '');
  return dir;
}

function instance(implementation: string, entrypoint: string): ServerInstanceConfig {
  return { instanceName: 'judge', serverType: 'resources_servers', implementation, config: { entrypoint }, host: '127.0.0.1', port: 1 };
}

describe('locateServer', () => {
  it('runs a Python app.py when the directory has one, even beside an app.ts', () => {
    const dir = serverDir('both', ['app.py', 'app.ts']);
    assert.deepEqual(locateServer(instance('both', 'app.py'), [root]), { dir, entrypoint: join(dir, 'app.py') });
  });

  it("runs gym's app.ts port for an original config's app.py when there is no Python file", () => {
    const dir = serverDir('ported', ['app.ts']);
    assert.deepEqual(locateServer(instance('ported', 'app.py'), [root]), { dir, entrypoint: join(dir, 'app.ts') });
  });

  it('names every place it looked when there is neither', () => {
    serverDir('empty', []);
    assert.throws(
      () => locateServer(instance('empty', 'app.py'), [root]),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'GYM_SERVER_ENTRYPOINT_NOT_FOUND');
        assert.match(error.message, /looked for: .*empty\/app\.py/);
        return true;
      },
    );
  });
});
