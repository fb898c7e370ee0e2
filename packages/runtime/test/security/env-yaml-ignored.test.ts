import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

describe('env.yaml, where the README puts policy_api_key', () => {
  it('is ignored by git at the repository root', (t) => {
    const probe = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: ROOT, encoding: 'utf8' });
    if (probe.status !== 0) return t.skip('not a git checkout');
    const res = spawnSync('git', ['check-ignore', '--no-index', '-q', 'env.yaml'], { cwd: ROOT });
    assert.equal(res.status, 0, 'env.yaml is not in .gitignore: a key written there could be committed');
  });
});
