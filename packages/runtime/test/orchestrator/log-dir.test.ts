// A run's log directory says when the run started: in its name and in its run manifest, which
// `gym trace` reads to pick the newest run whatever was written into the directories since.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { RUN_MANIFEST_FILE } from '@gym/names';
import { createRunLogDir } from '../../src/orchestrator/log-dir.js';

describe('createRunLogDir', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'gym-log-dir-'));
  after(() => rmSync(cwd, { recursive: true, force: true }));

  it('names the directory after the start, writes the run manifest and points latest at it', () => {
    const startedAt = new Date('2026-01-02T03:04:05.678Z');
    const dir = createRunLogDir(cwd, startedAt);
    assert.equal(basename(dir), '20260102T030405Z');
    assert.deepEqual(JSON.parse(readFileSync(join(dir, RUN_MANIFEST_FILE), 'utf8')), { started_at: '2026-01-02T03:04:05.678Z' });
    assert.equal(statSync(join(dir, RUN_MANIFEST_FILE)).mode & 0o777, 0o600);
    assert.equal(readlinkSync(join(cwd, '.gym', 'logs', 'latest')), '20260102T030405Z');
    // a second run in the same second gets its own directory and manifest
    const second = createRunLogDir(cwd, new Date('2026-01-02T03:04:05.900Z'));
    assert.equal(basename(second), '20260102T030405Z-2');
    assert.equal(JSON.parse(readFileSync(join(second, RUN_MANIFEST_FILE), 'utf8')).started_at, '2026-01-02T03:04:05.900Z');
  });
});
