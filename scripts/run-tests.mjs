#!/usr/bin/env node
// Runs every *.test.ts under the workspace with node's test runner (via tsx).
// Node 20 does not expand globs in `--test` arguments, so the files are listed here.
// Usage: node scripts/run-tests.mjs [path-filter ...]
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';

const ROOT = new URL('..', import.meta.url).pathname;
const SKIP = new Set(['node_modules', 'dist', '.git', 'bench', '.gym', 'test-artifacts']);

function findTests(dir, out) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(ROOT, path));
  }
  return out;
}

const filters = process.argv.slice(2);
const files = findTests(ROOT, [])
  .filter((f) => filters.length === 0 || filters.some((flt) => f.includes(flt)))
  .sort();
if (files.length === 0) {
  console.error(`no test files matched ${filters.join(' ') || '(all)'}`);
  process.exit(1);
}

const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=300000', ...files], {
  cwd: ROOT,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
