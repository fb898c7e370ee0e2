// Usage errors exit 2 with one line and a pointer to --help (not the whole help); --version works.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runGym } from '../support/gym-process.js';

describe('gym usage errors', () => {
  const cases: { args: string[]; error: RegExp; pointer: string }[] = [
    { args: ['bogus'], error: /^error: unknown command 'bogus'/, pointer: "(run 'gym --help' for usage)" },
    { args: ['eval', 'run', '--bogus'], error: /^error: unknown option '--bogus'/, pointer: "(run 'gym eval run --help' for usage)" },
    { args: ['eval', 'aggregate'], error: /^error: required option '-i, --input-glob/, pointer: "(run 'gym eval aggregate --help' for usage)" },
    { args: ['trace', 'show', '--slowest'], error: /^error: option '--slowest <n>' argument missing/, pointer: "(run 'gym trace show --help' for usage)" },
  ];
  for (const c of cases) {
    it(`gym ${c.args.join(' ')} exits 2 with the error and where the help is`, async () => {
      const { code, stdout, stderr } = await runGym(c.args);
      assert.equal(code, 2, stderr);
      assert.equal(stdout, '');
      const lines = stderr.trimEnd().split('\n');
      assert.match(lines[0]!, c.error);
      assert.deepEqual(lines.slice(1), [c.pointer]);
    });
  }

  it('gym --version prints the version of @gym/runtime', async () => {
    const { code, stdout } = await runGym(['--version']);
    assert.equal(code, 0);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/runtime/package.json'), 'utf8')) as { version: string };
    assert.equal(stdout.trim(), pkg.version);
  });

  it('--help still exits 0', async () => {
    const { code, stdout } = await runGym(['eval', 'run', '--help']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: gym eval run/);
  });

  it('gym env validate with no server is an error, not "config is valid: 0 servers"', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'gym-validate-'));
    try {
      const { code, stdout, stderr } = await runGym(['env', 'validate'], { cwd });
      assert.equal(code, 2, stderr);
      assert.doesNotMatch(stdout, /config is valid/);
      assert.match(stderr, /^gym: The config declares no server instances\. Pass --resources-server, --model-type or --config\.$/m);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
