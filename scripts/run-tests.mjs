#!/usr/bin/env node
// Runs every *.test.ts under the workspace with node's test runner (via tsx).
// Node 20 does not expand globs in `--test` arguments, so the files are listed here.
// Usage: node scripts/run-tests.mjs [path-filter ...]
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

// a second reporter records each file's time, so the slowest files are listed after the run
const timesDir = mkdtempSync(join(tmpdir(), 'gym-test-times-'));
const timesFile = join(timesDir, 'times.json');
const reporters = [
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${new URL('./file-times-reporter.mjs', import.meta.url).href}`,
  `--test-reporter-destination=${timesFile}`,
];
const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', '--test', ...reporters, '--test-concurrency=2', '--test-timeout=300000', ...files], {
  cwd: ROOT,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => {
  printSlowest();
  rmSync(timesDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});

/** The ten slowest files, then the counts again as the closing line (CI reads the last lines). */
function printSlowest() {
  let times;
  try {
    times = JSON.parse(readFileSync(timesFile, 'utf8'));
  } catch {
    return; // the run ended before the reporter wrote anything
  }
  const slowest = Object.entries(times.files)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10);
  console.log("\nslowest test files (their tests' time, imports aside):");
  for (const [file, ms] of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${relative(ROOT, file)}`);
  const { passed, failed, skipped } = times.counts;
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
}
