#!/usr/bin/env node
// Runs benchmarks under bench/ (never part of the tests). Usage: npm run bench -- [name-filter] (from the repository root or bench/)
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const dir = new URL('./', import.meta.url);
const filter = process.argv[2] ?? '';
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches '${filter}'`);
  process.exit(1);
}
// Benchmarks measure what users run: gym's servers run compiled while the build is current and
// through tsx otherwise (slower per call), so bring the build up to date first.
const repoRoot = new URL('../', import.meta.url).pathname;
const build = spawnSync(process.execPath, [new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname, '-b'], { cwd: repoRoot, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('the build failed (tsc -b): fix it before benchmarking');
  process.exit(build.status ?? 1);
}
for (const file of files) {
  console.log(`\n### ${file}\n`);
  const res = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--expose-gc', new URL(file, dir).pathname], { stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
