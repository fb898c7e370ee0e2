// `gym trace` over a large run: spans/s and peak RSS of each command, in a fresh process each.
// Generates a default-preset run (bench/support/generate-run.ts: spans of thousands of rollouts
// interleaved in one file per process, as a run at high concurrency writes them), or reads
// TRACE_BENCH_DIR (e.g. an amplified real run: bench/support/amplify-run.ts).
// The first command builds the partition index beside the logs; the others reuse it.
// Run: npm run bench -- trace-read   (TRACE_BENCH_SPANS=20000000 for 20M; default 1M)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandPaths, sql, TRACE_THREADS_ENV as WORKERS_ENV } from '@gym/trace';
import { PER_ROLLOUT, writeRun } from './support/generate-run.js';

const SPANS = Number(process.env['TRACE_BENCH_SPANS'] ?? 1_000_000);
const RUNNER = new URL('./support/trace-command.ts', import.meta.url).pathname;

let dir = process.env['TRACE_BENCH_DIR'];
const generated = dir === undefined;
if (dir === undefined) {
  dir = mkdtempSync(join(tmpdir(), 'gym-trace-bench-'));
  await writeRun(dir, Math.ceil((SPANS - 1) / PER_ROLLOUT));
}
try {
  const bytes = (await expandPaths([dir])).reduce((n, f) => n + f.bytes, 0);
  console.log(`${(bytes / 1048576).toFixed(0)} MiB of console files in ${dir}`);
  // CPU time is of every thread of the command's process; the load average (1 min) is the machine's
  // when the command started: on a shared machine, wall time says more about the neighbours
  console.log(`${availableParallelism()} cores; worker threads: ${process.env[WORKERS_ENV] ?? 'one per core'}`);
  console.log('| command | spans | wall s | CPU s | spans/s (wall) | spans/s (CPU) | peak RSS MiB | load |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  let counted = '';
  await sql({ paths: [dir], query: 'SELECT count(*) AS n FROM spans', format: 'json' }, { write: (t) => void (counted += t), error: (t) => void process.stderr.write(t) });
  const spans = (JSON.parse(counted) as Array<{ n: number }>)[0]!.n;
  for (const [command, arg, label] of [
    ['stats', undefined, 'stats (builds the index)'],
    ['stats', undefined, 'stats'],
    ['stats', undefined, 'stats, one thread'],
    ['anomalies', undefined, 'anomalies'],
    ['why-all', undefined, 'why --all'],
    ['report', join(dir, 'trace-report.html'), 'report'],
    ['show', generated ? `${Math.floor(SPANS / PER_ROLLOUT / 2)}-0` : (process.env['TRACE_BENCH_ROLLOUT'] ?? '0-0'), 'show --rollout'],
    ['sql', 'SELECT name, count(*), quantile_disc(duration_ms, 0.5), quantile_disc(duration_ms, 0.99) FROM spans GROUP BY name', 'sql (per-name p50/p99)'],
  ] as const) {
    if (label === 'stats (builds the index)') rmSync(join(dir, '.gym-trace-index'), { recursive: true, force: true });
    const env: Record<string, string> = label === 'stats, one thread' ? { [WORKERS_ENV]: '1' } : {};
    const load = loadavg()[0]!.toFixed(1);
    const r = JSON.parse(run(command, arg, env).stdout.trim().split('\n').at(-1)!) as { code: number; wallMs: number; cpuMs: number; maxRssMiB: number };
    if (r.code !== 0) throw new Error(`${label} exited ${r.code}`);
    const perSpans = command === 'show' ? '' : String(spans);
    const rate = (ms: number) => (command === 'show' ? '-' : String(Math.round(spans / (ms / 1000))));
    console.log(`| ${label} | ${perSpans} | ${(r.wallMs / 1000).toFixed(2)} | ${(r.cpuMs / 1000).toFixed(2)} | ${rate(r.wallMs)} | ${rate(r.cpuMs)} | ${r.maxRssMiB.toFixed(0)} | ${load} |`);
  }
} finally {
  if (generated) rmSync(dir, { recursive: true, force: true });
}

function run(command: string, arg: string | undefined, env: Record<string, string>) {
  const args = ['--conditions=source', '--import', 'tsx', RUNNER, command, dir!, ...(arg === undefined ? [] : [arg])];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr}`);
  return r;
}
