#!/usr/bin/env node
// Runs the workspace's *.test.ts files with node's test runner (via tsx), cheapest first: the build
// (`tsc -b`, so the processes end-to-end tests start run the current code compiled), then the unit
// tests, then the end-to-end tests (`*.e2e.test.ts`: real environments of several processes), which
// do not run once a unit test failed. Node 20 does not expand globs in `--test` arguments, so the
// files are listed here.
// Usage: node scripts/run-tests.mjs [--unit | --e2e] [path-filter ...]
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

const ROOT = new URL('..', import.meta.url).pathname;
const SKIP = new Set(['node_modules', 'dist', '.git', 'bench', '.gym', 'test-artifacts']);
const E2E = '.e2e.test.ts';

function findTests(dir, out) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(ROOT, path));
  }
  return out;
}

const args = process.argv.slice(2);
const only = args.includes('--unit') ? 'unit' : args.includes('--e2e') ? 'e2e' : undefined;
const filters = args.filter((a) => a !== '--unit' && a !== '--e2e');
const files = findTests(ROOT, [])
  .filter((f) => filters.length === 0 || filters.some((flt) => f.includes(flt)))
  .sort();
const phases = [
  { name: 'unit', files: files.filter((f) => !f.endsWith(E2E)) },
  { name: 'e2e', files: files.filter((f) => f.endsWith(E2E)) },
].filter((p) => p.files.length > 0 && (only === undefined || p.name === only));
if (phases.length === 0) {
  console.error(`no ${only === undefined ? '' : `${only} `}test files matched ${filters.join(' ') || '(all)'}`);
  process.exit(1);
}

build();
const timesDir = mkdtempSync(join(tmpdir(), 'gym-test-times-'));
const results = [];
let failed = false;
for (const phase of phases) {
  if (failed) {
    console.log(`\n=== ${phase.name} tests not run: an earlier phase failed ===`);
    break;
  }
  console.log(`\n=== ${phase.name} tests (${phase.files.length} files) ===`);
  const result = await runPhase(phase, join(timesDir, `${phase.name}.json`));
  results.push(result);
  failed = result.code !== 0;
}
printSummary(results);
rmSync(timesDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);

/** `tsc -b`: the compiled code is what `gym` runs (bin/gym.mjs), and a stale build would test old code. */
function build() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  console.log('=== build (tsc -b) ===');
  const { status } = spawnSync(process.execPath, [tsc, '-b'], { cwd: ROOT, stdio: 'inherit' });
  if (status !== 0) {
    console.error('the build failed (see above): fix it before running the tests');
    console.log('tests: 0 passed, 0 failed, 0 skipped');
    process.exit(1);
  }
}

/** One `node --test` run over `phase.files`; resolves with its exit code and the times reporter's record. */
function runPhase(phase, timesFile) {
  // a second reporter records each file's time, so the slowest files are listed after the run
  const reporters = [
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${new URL('./file-times-reporter.mjs', import.meta.url).href}`,
    `--test-reporter-destination=${timesFile}`,
  ];
  const testArgs = ['--conditions=source', '--import', 'tsx', '--test', ...reporters, '--test-concurrency=2', '--test-timeout=300000', ...phase.files];
  // without the terminal's size: gym's output narrows to COLUMNS when piped, and a test that needs
  // a width sets it; one typed in an 80-column terminal must see what CI sees
  const env = { ...process.env };
  delete env.COLUMNS;
  delete env.LINES;
  const child = spawn(process.execPath, testArgs, { cwd: ROOT, stdio: 'inherit', env });
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      let times;
      try {
        times = JSON.parse(readFileSync(timesFile, 'utf8'));
      } catch {
        times = undefined; // the run ended before the reporter wrote anything
      }
      resolve({ code: code ?? (signal ? 1 : 0), times });
    }),
  );
}

/** The ten slowest files of every phase, then the counts as the closing line (CI reads the last lines). */
function printSummary(results) {
  const files = Object.assign({}, ...results.map((r) => r.times?.files ?? {}));
  const slowest = Object.entries(files)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10);
  if (slowest.length > 0) console.log("\nslowest test files (their tests' time, imports aside):");
  for (const [file, ms] of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${relative(ROOT, file)}`);
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) for (const key of Object.keys(total)) total[key] += r.times?.counts[key] ?? 0;
  console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
}
