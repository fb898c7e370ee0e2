// The library snippets of docs/config.md and docs/trace.md run as written, in plain node: no
// `--conditions=source`, no tsx. That is how a user imports the packages after `npm ci`, whose
// `prepare` script builds them (`tsc -b`) so their `dist/` entry points exist.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/gym-process.js';
import { filesByService, rolloutSpans } from '../../../trace/test/support/fixtures.js';

/** The ```ts blocks of a docs page that import a gym package. */
function librarySnippets(page: string): string[] {
  const text = readFileSync(join(REPO_ROOT, 'docs', page), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((code) => /from '@gym\//.test(code));
}

/** Runs `code` as an ES module in a node without flags, from `cwd`. */
function runPlain(code: string, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  return spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd, env, encoding: 'utf8', timeout: 120_000 });
}

let workDir: string;

before(() => {
  // what `npm ci` runs: the root `prepare` script
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts['prepare'], 'tsc -b');
  const build = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b'], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stdout + build.stderr);
  // a user's project: the workspace's node_modules, a run's logs under .gym/logs/run-1
  workDir = mkdtempSync(join(tmpdir(), 'gym-snippets-'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(workDir, 'node_modules'), 'dir');
  mkdirSync(join(workDir, '.gym/logs/run-1'), { recursive: true });
  for (const [file, lines] of Object.entries(filesByService(rolloutSpans({ rolloutId: '0-0' })))) {
    writeFileSync(join(workDir, '.gym/logs/run-1', file), lines.join('\n') + '\n');
  }
});
after(() => rmSync(workDir, { recursive: true, force: true }));

describe('library snippets in the docs', () => {
  it('docs/config.md: loadConfig resolves the example environment', () => {
    const [snippet] = librarySnippets('config.md');
    assert.ok(snippet !== undefined, 'docs/config.md has no library snippet');
    const run = runPlain(`${snippet}\nconsole.log(JSON.stringify(config.servers.map((s) => s.instanceName)));`, REPO_ROOT);
    assert.equal(run.status, 0, run.stderr);
    const names = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as string[];
    assert.ok(names.includes('example_single_tool_call'), run.stdout);
  });

  it('docs/trace.md: the analysis snippet explains the rollout of a run', () => {
    const snippet = librarySnippets('trace.md').find((code) => code.includes('readSpans'));
    assert.ok(snippet !== undefined, 'docs/trace.md has no readSpans snippet');
    const run = runPlain(snippet, workDir);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /0-0/);
  });

  it('docs/trace.md: the receiver snippet starts and closes a receiver', () => {
    const snippet = librarySnippets('trace.md').find((code) => code.includes('startOtlpReceiver'));
    assert.ok(snippet !== undefined, 'docs/trace.md has no startOtlpReceiver snippet');
    const run = runPlain(`${snippet}\nconsole.log(JSON.stringify(rx.counts()));`, workDir);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\{.*\}/);
  });
});
