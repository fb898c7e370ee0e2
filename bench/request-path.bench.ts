// The request path: server CPU per request of one route served by node:http by hand, by bare
// fastify and by gym (`createServerApp` + `addJsonRoute`, no schema), side by side in one run.
// One server process per variant, each a `POST /run` taking the example row and answering about
// 300 bytes of JSON; load from one undici pool per variant (BENCH_IN_FLIGHT requests in flight),
// the variants driven in turn for BENCH_ROUND_MS rounds, order alternating; CPU per request from
// /proc (every thread, and the main thread), medians of the rounds.
// Run: npm run bench -- request-path   (loopback only)
//   BENCH_ROUNDS (default 7), BENCH_ROUND_MS (2500), BENCH_IN_FLIGHT (32)
//   BENCH_VARIANTS   comma-separated, default `http,fastify,gym,gym-cookie`: `gym-cookie` is gym with
//                    the client sending back the session cookie it was given (a returning session)
//   BENCH_GYM_BEFORE path of another build's packages/server/dist/index.js: adds `gym-before` (and
//                    `gym-before-cookie` when `gym-cookie` runs), served from that build, for a
//                    before/after comparison in the same run; the copy must sit inside the repository
//                    (e.g. packages/server/dist-before, removed afterwards) for its imports to resolve
//   BENCH_GYM_BUILDS `label=path,…`: each adds `gym-<label>` served from that build of @gym/server
//                    (experiments: a copy of packages/server/dist with one piece changed)
//   BENCH_TOGETHER=1 drive every variant at once in each round (they share the machine's state of
//                    the moment; ratios are then taken per round), instead of in turn
//   BENCH_CPU_PROF   a variant name: that server runs under --cpu-prof; the profile's directory is printed
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { mainThreadCpuSeconds, processCpuSeconds } from './support/proc-cpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = fileURLToPath(new URL('./support/request-path-server.ts', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 2500);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 32);
const BEFORE = process.env.BENCH_GYM_BEFORE;
const PROFILED = process.env.BENCH_CPU_PROF;
const ROW = readFileSync(join(ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;

interface Variant {
  name: string;
  args: string[];
  /** Send back the cookie of the first answer on every later request. */
  cookie: boolean;
}

const ALL: Record<string, Variant> = {
  http: { name: 'http', args: ['http'], cookie: false },
  fastify: { name: 'fastify', args: ['fastify'], cookie: false },
  gym: { name: 'gym', args: ['gym'], cookie: false },
  'gym-cookie': { name: 'gym-cookie', args: ['gym'], cookie: true },
};
const names = (process.env.BENCH_VARIANTS ?? 'http,fastify,gym,gym-cookie').split(',');
const variants = names.map((n) => {
  const v = ALL[n];
  if (v === undefined) throw new Error(`unknown variant '${n}' (known: ${Object.keys(ALL).join(', ')})`);
  return v;
});
if (BEFORE !== undefined) {
  variants.push({ name: 'gym-before', args: ['gym', BEFORE], cookie: false });
  if (names.includes('gym-cookie')) variants.push({ name: 'gym-before-cookie', args: ['gym', BEFORE], cookie: true });
}

for (const spec of (process.env.BENCH_GYM_BUILDS ?? '').split(',').filter(Boolean)) {
  const [label, path] = spec.split('=');
  variants.push({ name: `gym-${label}`, args: ['gym', path!], cookie: false });
}

interface Running {
  variant: Variant;
  child: ChildProcess;
  pool: Pool;
  cookie: string | undefined;
  perRequest: number[];
  mainPerRequest: number[];
}

const profileDir = PROFILED === undefined ? undefined : mkdtempSync(join(tmpdir(), 'gym-request-path-prof-'));

async function start(variant: Variant): Promise<Running> {
  const flags = variant.name === PROFILED ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  // no `--conditions=source`: @gym/server is loaded from its build, as servers run
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', SERVER, ...variant.args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
    child.once('exit', (code) => reject(new Error(`${variant.name} server exited (${code})`)));
  });
  return { variant, child, pool: new Pool(`http://127.0.0.1:${port}`, { connections: IN_FLIGHT, pipelining: 1 }), cookie: undefined, perRequest: [], mainPerRequest: [] };
}

/** Drives `r` for `ms` with IN_FLIGHT requests in flight; returns requests answered, server CPU s (all, main) in that window. */
async function drive(r: Running, ms: number): Promise<{ requests: number; cpu: number; main: number }> {
  let stop = false;
  let requests = 0;
  const pid = r.child.pid!;
  const worker = async () => {
    while (!stop) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (r.cookie !== undefined) headers['cookie'] = r.cookie;
      const res = await r.pool.request({ method: 'POST', path: '/run', headers, body: ROW });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${r.variant.name}: status ${res.statusCode}`);
      if (r.variant.cookie && r.cookie === undefined) {
        const set = res.headers['set-cookie'];
        const first = Array.isArray(set) ? set[0] : set;
        if (first !== undefined) r.cookie = first.slice(0, first.indexOf(';'));
      }
      requests++;
    }
  };
  // one request first, so a cookie variant has its cookie before the load starts
  stop = true;
  await worker();
  stop = false;
  const workers = Array.from({ length: IN_FLIGHT }, worker);
  // a short ramp-up outside the window
  await new Promise((resolve) => setTimeout(resolve, 200));
  const cpu0 = processCpuSeconds(pid);
  const main0 = mainThreadCpuSeconds(pid);
  const n0 = requests;
  await new Promise((resolve) => setTimeout(resolve, ms));
  const result = { requests: requests - n0, cpu: processCpuSeconds(pid) - cpu0, main: mainThreadCpuSeconds(pid) - main0 };
  stop = true;
  await Promise.all(workers);
  return result;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** A ratio to three places, or a dash when its base variant did not run. */
const ratioText = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(3));

const running: Running[] = [];
try {
  for (const v of variants) running.push(await start(v));
  // warm-up, unmeasured: fresh servers run unoptimised code
  for (const r of running) await drive(r, 3000);
  const loads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? running : [...running].reverse();
    const record = (r: Running, { requests, cpu, main }: { requests: number; cpu: number; main: number }) => {
      r.perRequest.push((cpu / requests) * 1e6);
      r.mainPerRequest.push((main / requests) * 1e6);
    };
    if (process.env.BENCH_TOGETHER === '1') {
      const results = await Promise.all(order.map((r) => drive(r, ROUND_MS)));
      order.forEach((r, i) => record(r, results[i]!));
    } else {
      for (const r of order) record(r, await drive(r, ROUND_MS));
    }
    loads.push(loadavg()[0]!);
    process.stderr.write(`round ${round + 1}/${ROUNDS}: ${running.map((r) => `${r.variant.name} ${r.perRequest.at(-1)!.toFixed(1)}`).join(', ')} µs per request\n`);
  }
  const base = (name: string) => median(running.find((r) => r.variant.name === name)?.perRequest ?? [Number.NaN]);
  /** The median over rounds of `a`'s CPU per request ÷ `b`'s in the same round. */
  const pairedRatio = (a: string, b: string) => {
    const ra = running.find((r) => r.variant.name === a)?.perRequest;
    const rb = running.find((r) => r.variant.name === b)?.perRequest;
    return ra === undefined || rb === undefined ? Number.NaN : median(ra.map((x, i) => x / rb[i]!));
  };
  console.log(`\nnode ${process.version}, ${ROUNDS} rounds of ${ROUND_MS} ms, ${IN_FLIGHT} in flight, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (1 min)\n`);
  console.log('| server (one route) | CPU µs per request, median | main thread | rounds (min–max) | ÷ fastify | ÷ http | ÷ fastify, per round |\n| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of running) {
    const m = median(r.perRequest);
    console.log(
      `| ${r.variant.name} | ${m.toFixed(1)} | ${median(r.mainPerRequest).toFixed(1)} | ${Math.min(...r.perRequest).toFixed(1)}–${Math.max(...r.perRequest).toFixed(1)} | ${ratioText(m / base('fastify'))} | ${ratioText(m / base('http'))} | ${ratioText(pairedRatio(r.variant.name, 'fastify'))} |`,
    );
  }
  if (BEFORE !== undefined) {
    console.log(`\ngym ÷ gym-before: ${(base('gym') / base('gym-before')).toFixed(3)} (of medians), ${pairedRatio('gym', 'gym-before').toFixed(3)} (median per round)`);
    if (names.includes('gym-cookie')) {
      console.log(
        `gym-cookie ÷ gym-before-cookie: ${(base('gym-cookie') / base('gym-before-cookie')).toFixed(3)} (of medians), ${pairedRatio('gym-cookie', 'gym-before-cookie').toFixed(3)} (median per round)`,
      );
    }
  }
} finally {
  for (const r of running) {
    await r.pool.close();
    const exited = new Promise((resolve) => r.child.once('exit', resolve));
    r.child.kill('SIGTERM');
    await exited;
  }
  if (profileDir !== undefined) console.log(`\nprofile of ${PROFILED}: ${profileDir}`);
}
