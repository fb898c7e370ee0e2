// `gym trace` over a large run: spans/s and peak RSS of each command, in a fresh process each.
// Generates a default-preset run (one gym.job trace; per rollout the collector's call, the
// agent's /run, gym.rollout, a model call and its server spans; console lines with log lines
// between them), or reads TRACE_BENCH_DIR (e.g. an amplified real run: bench/support/amplify-run.ts).
// The first command builds the partition index beside the logs; the others reuse it.
// Run: npm run bench -- trace-read   (TRACE_BENCH_SPANS=20000000 for 20M; default 1M)
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandPaths, sql, TRACE_WORKERS_ENV as WORKERS_ENV } from '@gym/trace';
import { consoleSpanLine } from './support/console-span-line.js';

const SPANS = Number(process.env['TRACE_BENCH_SPANS'] ?? 1_000_000);
const PER_ROLLOUT = 7;
const BASE = 1_767_225_600_000_000_000n;
const RUNNER = new URL('./support/trace-command.ts', import.meta.url).pathname;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const TRACE = hex(1, 32);
const JOB = hex(1, 16);

function line(spanId: string, parent: string | null, name: string, kind: string, service: string, start: bigint, end: bigint, attributes: object): string {
  return consoleSpanLine({ traceId: TRACE, spanId, parent, name, kind, service, runId: 'bench', start, end, attributes });
}

// one rollout every 50 µs, 1 s long: about 20,000 in flight, as at high concurrency
function rolloutLines(i: number): string[] {
  const at = BASE + BigInt(i) * 50_000n;
  const id = (j: number) => hex(i * PER_ROLLOUT + j + 2, 16);
  const rid = { 'nemo.gym.rollout.id': `${i}-0` };
  const ms = (n: number) => at + BigInt(n) * 1_000_000n;
  return [
    line(id(0), JOB, 'HTTP POST', 'CLIENT', 'nemo-gym/collector', ms(0), ms(1000), { 'url.full': 'http://127.0.0.1:9000/run', ...rid }),
    line(id(1), id(0), 'POST /run', 'SERVER', 'nemo-gym/simple_agent', ms(1), ms(999), { 'http.route': '/run', ...rid }),
    line(id(2), id(1), 'gym.rollout', 'INTERNAL', 'nemo-gym/simple_agent', ms(2), ms(998), rid),
    line(id(3), id(2), 'HTTP POST', 'CLIENT', 'nemo-gym/simple_agent', ms(5), ms(605), { 'url.full': 'http://127.0.0.1:9001/v1/responses', ...rid }),
    line(id(4), id(3), 'POST /v1/responses', 'SERVER', 'nemo-gym/policy_model', ms(10), ms(600), { 'http.route': '/v1/responses', ...rid }),
    line(id(5), id(4), 'gym.model.responses', 'INTERNAL', 'nemo-gym/policy_model', ms(12), ms(598), { 'gen_ai.request.model': 'bench', ...rid }),
    `{"level":30,"time":1767225600000,"pid":1,"msg":"request completed","reqId":"req-${i}","responseTime":0.9}`,
    line(id(6), id(2), 'gym.verify', 'INTERNAL', 'nemo-gym/simple_agent', ms(700), ms(990), { 'gym.verify.reward': 1, ...rid }),
  ];
}

let dir = process.env['TRACE_BENCH_DIR'];
const generated = dir === undefined;
if (dir === undefined) {
  dir = mkdtempSync(join(tmpdir(), 'gym-trace-bench-'));
  const out = createWriteStream(join(dir, 'run.log'));
  const rollouts = Math.ceil((SPANS - 1) / PER_ROLLOUT);
  out.write(line(JOB, null, 'gym.job', 'INTERNAL', 'nemo-gym/collector', BASE, BASE + BigInt(rollouts) * 50_000n + 1_000_000_000n, {}) + '\n');
  for (let i = 0; i < rollouts; i++) if (!out.write(rolloutLines(i).join('\n') + '\n')) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
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
