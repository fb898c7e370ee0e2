// Which file runs a server: its compiled copy under the root's dist/ while that build is at least as
// new as every server source (tests aside), else the TypeScript as written; a build is judged by its
// record's modification time, set here explicitly.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { compiledEntrypoint } from '../../src/orchestrator/compiled-server.js';
import { isBuildCurrent } from '../../src/orchestrator/build-freshness.js';

const BUILT = new Date('2026-01-02T00:00:00Z');
const BEFORE = new Date('2026-01-01T00:00:00Z');
const AFTER = new Date('2026-01-03T00:00:00Z');

const temp = mkdtempSync(join(tmpdir(), 'gym-compiled-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** Writes `files` (relative paths) under a new root, each with modification time `time`; returns the root. */
function tree(name: string, files: Record<string, Date>): string {
  const root = join(temp, name);
  for (const [file, time] of Object.entries(files)) {
    const path = join(root, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
    utimesSync(path, time, time);
  }
  return root;
}

const BUILT_SERVER = {
  'resources_servers/weather/app.ts': BEFORE,
  'resources_servers/weather/grade.ts': BEFORE,
  'responses_api_models/echo/app.ts': BEFORE,
  'dist/resources_servers/weather/app.js': BUILT,
  'dist/servers.tsbuildinfo': BUILT,
};

describe('isBuildCurrent', () => {
  it('is current when no source is newer than the record, stale when one is', () => {
    const root = tree('sources', { 'src/a.ts': BEFORE, 'src/deep/b.ts': BEFORE, 'tsconfig.tsbuildinfo': BUILT });
    assert.equal(isBuildCurrent(join(root, 'tsconfig.tsbuildinfo'), [join(root, 'src')]), true);
    utimesSync(join(root, 'src/deep/b.ts'), AFTER, AFTER);
    assert.equal(isBuildCurrent(join(root, 'tsconfig.tsbuildinfo'), [join(root, 'src')]), false);
  });

  it('ignores what the build does not compile: tests, test folders, other files', () => {
    const root = tree('tests', { 'src/a.ts': BEFORE, 'src/a.test.ts': AFTER, 'src/test/b.ts': AFTER, 'src/data.json': AFTER, record: BUILT });
    assert.equal(isBuildCurrent(join(root, 'record'), [join(root, 'src')]), true);
  });

  it('is stale without a record, and current when there are no sources at all (an install without them)', () => {
    const root = tree('no-record', { 'src/a.ts': BEFORE });
    assert.equal(isBuildCurrent(join(root, 'missing'), [join(root, 'src')]), false);
    assert.equal(isBuildCurrent(join(root, 'missing'), [join(root, 'no-src')]), true);
  });
});

describe('compiledEntrypoint', () => {
  it("is the compiled copy under the root's dist/ while the servers' build is current", () => {
    const root = tree('current', BUILT_SERVER);
    const dir = join(root, 'resources_servers/weather');
    assert.equal(compiledEntrypoint(dir, join(dir, 'app.ts')), join(root, 'dist/resources_servers/weather/app.js'));
  });

  it('is none once any server source is newer than the build, in any server folder', () => {
    const root = tree('stale', { ...BUILT_SERVER, 'responses_api_models/echo/app.ts': AFTER });
    const dir = join(root, 'resources_servers/weather');
    assert.equal(compiledEntrypoint(dir, join(dir, 'app.ts')), undefined);
  });

  it('is none for a server never compiled, and for JavaScript and Python entrypoints', () => {
    const root = tree('mixed', { ...BUILT_SERVER, 'resources_servers/mine/app.ts': BEFORE, 'resources_servers/plain/app.mjs': BEFORE });
    assert.equal(compiledEntrypoint(join(root, 'resources_servers/mine'), join(root, 'resources_servers/mine/app.ts')), undefined);
    assert.equal(compiledEntrypoint(join(root, 'resources_servers/plain'), join(root, 'resources_servers/plain/app.mjs')), undefined);
    assert.equal(compiledEntrypoint(join(root, 'resources_servers/weather'), join(root, 'resources_servers/weather/app.py')), undefined);
  });
});
