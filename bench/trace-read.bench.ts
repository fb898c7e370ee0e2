// `gym trace` over a large run: the first command's conversion into the Parquet store side by
// side with DuckDB's own read_json → Parquet of the same files (alternating rounds), the store's
// size against the logs', then each command's time, spans/s and peak RSS, each in a fresh process
// running the compiled build (`dist/`, as a user's `gym` does; `npm run bench` builds it first):
// the command's own time, and the process's from its start (Node and the modules loaded).
// Generates a real-shaped default-preset run (bench/support/generate-run.ts: one file per process,
// about 1.4 KB of file per span with metric and log records; TRACE_BENCH_RECORD=lean for the lean
// record), or reads TRACE_BENCH_DIR (e.g. an amplified real run: bench/support/amplify-run.ts).
// Run: npm run bench -- trace-read   (TRACE_BENCH_SPANS=20000000 for 20M; default 1M;
//      TRACE_BENCH_ROUNDS=3 conversion rounds; TRACE_BENCH_COMMANDS=stats,why-all,show,… a subset of the commands)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandPaths, sql } from '@gym/trace';
import { PER_ROLLOUT, writeRun } from './support/generate-run.js';

const SPANS = Number(process.env['TRACE_BENCH_SPANS'] ?? 1_000_000);
const ROUNDS = Number(process.env['TRACE_BENCH_ROUNDS'] ?? 3);
// e.g. TRACE_BENCH_COMMANDS=stats,show,sql to time only those after the conversion
const ONLY = process.env['TRACE_BENCH_COMMANDS']?.split(',');
const RUNNER = new URL('./support/trace-command.mjs', import.meta.url).pathname;
// the store's directory beside the logs (docs/trace.md, "The store")
const STORE_DIR_NAME = '.gym-trace-store';

interface Measured {
  code: number;
  wallMs: number;
  cpuMs: number;
  processWallMs: number;
  processCpuMs: number;
  maxRssMiB: number;
}

let dir = process.env['TRACE_BENCH_DIR'];
const generated = dir === undefined;
if (dir === undefined) {
  dir = mkdtempSync(join(tmpdir(), 'gym-trace-bench-'));
  await writeRun(dir, Math.ceil((SPANS - 1) / PER_ROLLOUT), process.env['TRACE_BENCH_RECORD'] === 'lean');
}
const scratch = mkdtempSync(join(tmpdir(), 'gym-trace-plain-'));
const store = join(dir, STORE_DIR_NAME);
try {
  const files = await expandPaths([dir]);
  const bytes = files.reduce((n, f) => n + f.bytes, 0);
  console.log(`${(bytes / 1048576).toFixed(0)} MiB of console files (${files.length}) in ${dir}; ${availableParallelism()} cores`);

  // the first command, side by side with DuckDB alone, in alternating rounds
  console.log('\n| round | gym trace: first command (conversion) wall s | CPU s | peak RSS MiB | DuckDB read_json → Parquet wall s | CPU s | peak RSS MiB | ratio wall | ratio CPU | load |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (let round = 1; round <= ROUNDS; round++) {
    rmSync(store, { recursive: true, force: true });
    const load = loadavg()[0]!.toFixed(1);
    const ours = run('store', undefined);
    const plain = run('duckdb-plain', scratch);
    rmSync(join(scratch, 'plain.parquet'), { force: true });
    console.log(
      `| ${round} | ${s(ours.wallMs)} | ${s(ours.cpuMs)} | ${ours.maxRssMiB.toFixed(0)} | ${s(plain.wallMs)} | ${s(plain.cpuMs)} | ${plain.maxRssMiB.toFixed(0)} | ${(ours.wallMs / plain.wallMs).toFixed(2)} | ${(ours.cpuMs / plain.cpuMs).toFixed(2)} | ${load} |`,
    );
  }
  const storeBytes = readdirSync(store).reduce((n, f) => n + statSync(join(store, f)).size, 0);
  console.log(`\nstore: ${(storeBytes / 1048576).toFixed(1)} MiB = ${((storeBytes / bytes) * 100).toFixed(2)} % of the logs`);

  let counted = '';
  await sql({ paths: [dir], query: 'SELECT count(*) AS n FROM spans', format: 'json' }, { write: (t) => void (counted += t), error: (t) => void process.stderr.write(t) });
  const spans = (JSON.parse(counted) as Array<{ n: number }>)[0]!.n;
  console.log(`\n| command (store built) | spans | wall s | CPU s | spans/s (wall) | spans/s (CPU) | process wall s | process CPU s | peak RSS MiB | load |`);
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [command, arg, label] of [
    ['stats', undefined, 'stats'],
    ['anomalies', undefined, 'anomalies'],
    ['why-all', undefined, 'why --all'],
    ['report', join(scratch, 'trace-report.html'), 'report'],
    ['show', generated ? `${Math.floor(SPANS / PER_ROLLOUT / 2)}-0` : (process.env['TRACE_BENCH_ROLLOUT'] ?? '0-0'), 'show --rollout'],
    ['sql', 'SELECT name, count(*), quantile_disc(duration_ms, 0.5), quantile_disc(duration_ms, 0.99) FROM spans GROUP BY name', 'sql (per-name p50/p99)'],
    ['convert', join(scratch, 'otlp.jsonl'), 'convert --to otlp-json'],
  ] as const) {
    if (ONLY !== undefined && !ONLY.includes(command)) continue;
    const load = loadavg()[0]!.toFixed(1);
    const r = run(command, arg);
    const perSpans = command === 'show' ? '' : String(spans);
    const rate = (ms: number) => (command === 'show' ? '-' : String(Math.round(spans / (ms / 1000))));
    console.log(
      `| ${label} | ${perSpans} | ${s(r.wallMs)} | ${s(r.cpuMs)} | ${rate(r.wallMs)} | ${rate(r.cpuMs)} | ${s(r.processWallMs)} | ${s(r.processCpuMs)} | ${r.maxRssMiB.toFixed(0)} | ${load} |`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  if (generated) rmSync(dir, { recursive: true, force: true });
}

function s(ms: number): string {
  return (ms / 1000).toFixed(2);
}

function run(command: string, arg: string | undefined): Measured {
  const args = [RUNNER, command, dir!, ...(arg === undefined ? [] : [arg])];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Measured;
  if (m.code !== 0) throw new Error(`${command} exited ${m.code}: ${r.stderr}`);
  return m;
}
