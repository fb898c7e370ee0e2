// `gym --help` declares the trace commands but loads none of them, nor the trace library: the
// trace table comes from `@gym/trace/cli` and each action imports its command when it runs.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../support/gym-process.js';

const dir = mkdtempSync(join(tmpdir(), 'gym-help-modules-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// A module hook that writes the URL of every module the process loads to a file.
function loadedModules(args: string[]): { status: number | null; stdout: string; stderr: string; modules: string[] } {
  const log = join(dir, `loaded-${args.join('-').replace(/\W+/g, '_')}.txt`);
  const hook = join(dir, 'record-loads.mjs');
  const recorder = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
  writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(recorder)}`)});\n`);
  writeFileSync(log, '');
  const main = join(REPO_ROOT, 'packages/runtime/src/cli/main.ts');
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--import', pathToFileURL(hook).href, main, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  const modules = readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.includes('/packages/trace/'));
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, modules: modules.map((u) => u.slice(u.indexOf('/packages/trace/') + 1)) };
}

describe('gym --help', () => {
  it('lists the trace command from its table and loads no trace command or library module', () => {
    const { status, stdout, stderr, modules } = loadedModules(['--help']);
    assert.equal(status, 0, stderr);
    assert.match(stdout, /^\s+trace\b/m);
    // the recorder works: the command table itself was loaded
    assert.ok(modules.includes('packages/trace/src/cli.ts'), modules.join('\n'));
    const table = new Set(['packages/trace/src/cli.ts', 'packages/trace/src/commands/output.ts', 'packages/trace/src/render/format.ts', 'packages/trace/src/errors.ts', 'packages/trace/package.json']);
    assert.deepEqual(
      modules.filter((m) => !table.has(m)),
      [],
    );
  });

  it('loads a trace command when it runs', () => {
    const { stderr, modules } = loadedModules(['trace', 'stats', join(dir, 'no-such-run')]);
    assert.match(stderr, /no-such-run/);
    assert.ok(modules.includes('packages/trace/src/commands/stats.ts'), modules.join('\n'));
  });
});
