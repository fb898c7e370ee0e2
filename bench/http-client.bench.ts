// The agent's outgoing calls: CPU per rollout of gym's HTTP client beside undici by hand (what the
// hand-written chain of `floor` does per hop: `new URL`, a `Pool` per origin, `JSON.stringify`,
// `body.text()` and `JSON.parse`), making a rollout's five calls (seed_session, model, tool, model,
// verify) with its cookies, against one node:http upstream in another process
// (support/http-client-server.ts). gym's client is loaded from its build (`packages/server/dist`). The clients run in this process, in turn, BENCH_ROUND_MS each,
// the order alternating per round; CPU from `process.cpuUsage` (every thread) and /proc (the main
// thread) over each round, medians of the rounds and of the per-round ratios to `undici`.
// Run: npm run bench -- http-client
//   BENCH_ROUNDS (default 9), BENCH_ROUND_MS (2000), BENCH_IN_FLIGHT (32 rollouts at once)
//   BENCH_GYM_BEFORE path of another build's packages/server/dist/index.js: adds `gym-before`, that
//                    build's client (the copy must sit inside the repository, e.g.
//                    packages/server/dist-before, for its imports to resolve; remove it afterwards)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CookieMap, createHttpClient, HttpClient } from '@gym/server';
import { Pool } from 'undici';
import { median } from './support/median.js';
import { mainThreadCpuSeconds } from './support/proc-cpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = fileURLToPath(new URL('./support/http-client-server.ts', import.meta.url));
const { BENCH_ROUNDS, BENCH_ROUND_MS, BENCH_IN_FLIGHT, BENCH_GYM_BEFORE: BEFORE } = process.env;
const [ROUNDS, ROUND_MS, IN_FLIGHT] = [Number(BENCH_ROUNDS ?? 9), Number(BENCH_ROUND_MS ?? 2000), Number(BENCH_IN_FLIGHT ?? 32)];
const ROW = JSON.parse(readFileSync(join(ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!) as Record<string, unknown>;

type Json = Record<string, unknown>;
/** One client's POST: the parsed answer, its text and the cookies it set. */
type Post = (url: string, body: unknown, cookies: CookieMap) => Promise<{ json: Json; text: string; cookies: CookieMap }>;

/** The chain's `post` (bench/support/baseline-server.ts), untraced. */
function undiciPost(): { post: Post; close(): Promise<void> } {
  const pools = new Map<string, Pool>();
  const NO_COOKIES: CookieMap = {};
  return {
    async post(url, body) {
      const target = new URL(url);
      let pool = pools.get(target.origin);
      if (pool === undefined) pools.set(target.origin, (pool = new Pool(target.origin, { connections: 256, pipelining: 1 })));
      const res = await pool.request({ method: 'POST', path: target.pathname, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await res.body.text();
      return { text, json: JSON.parse(text) as Json, cookies: NO_COOKIES };
    },
    close: () => Promise.all([...pools.values()].map((p) => p.close())).then(() => undefined),
  };
}

/** gym's client as the simple agent calls it: the rollout's cookies on every call. */
function gymPost(http: HttpClient): { post: Post; close(): Promise<void> } {
  return {
    async post(url, body, cookies) {
      const res = await http.post<Json>(url, body, { cookies });
      return { json: res.body, text: res.text, cookies: res.cookies };
    },
    close: () => http.close(),
  };
}

/** A rollout's calls, as the simple agent makes them. */
async function rollout(post: Post, base: string): Promise<void> {
  const seeded = await post(`${base}/seed_session`, ROW, {});
  let resources = seeded.cookies;
  let model: CookieMap = {};
  const params = ROW['responses_create_params'] as Json;
  const trajectory: Json[] = [];
  for (let step = 0; step < 8; step++) {
    const reply = await post(`${base}/v1/responses`, { ...params, input: [...(params['input'] as unknown[]), ...trajectory] }, model);
    model = { ...model, ...reply.cookies };
    const output = reply.json['output'] as Json[];
    trajectory.push(...output);
    const calls = output.filter((o) => o['type'] === 'function_call');
    if (calls.length === 0) break;
    for (const call of calls) {
      const tool = await post(`${base}/${String(call['name'])}`, JSON.parse(String(call['arguments'])), resources);
      resources = { ...resources, ...tool.cookies };
      trajectory.push({ type: 'function_call_output', call_id: call['call_id'], output: tool.text });
    }
  }
  await post(`${base}/verify`, { ...ROW, response: { output: trajectory } }, resources);
}

interface Variant {
  name: string;
  client: { post: Post; close(): Promise<void> };
  perRollout: number[];
  mainPerRollout: number[];
}

async function drive(v: Variant, base: string, ms: number): Promise<{ rollouts: number; cpu: number; main: number }> {
  let stop = false;
  let rollouts = 0;
  const worker = async () => {
    while (!stop) {
      await rollout(v.client.post, base);
      rollouts++;
    }
  };
  const workers = Array.from({ length: IN_FLIGHT }, worker);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuSeconds(process.pid);
  const n0 = rollouts;
  await new Promise((resolve) => setTimeout(resolve, ms));
  const cpu = process.cpuUsage(cpu0);
  const result = { rollouts: rollouts - n0, cpu: (cpu.user + cpu.system) / 1e6, main: mainThreadCpuSeconds(process.pid) - main0 };
  stop = true;
  await Promise.all(workers);
  return result;
}

const child = spawn(process.execPath, ['--import', 'tsx', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
const variants: Variant[] = [];
try {
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('exit', (code) => reject(new Error(`upstream exited (${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  variants.push({ name: 'undici', client: undiciPost(), perRollout: [], mainPerRollout: [] });
  // gym's client from its build, as a server runs it (npm run bench builds first)
  const load = async (path: string) => ((await import(pathToFileURL(path).href)) as { createHttpClient: typeof createHttpClient }).createHttpClient();
  variants.push({ name: 'gym', client: gymPost(await load(join(ROOT, 'packages/server/dist/index.js'))), perRollout: [], mainPerRollout: [] });
  if (BEFORE !== undefined) variants.push({ name: 'gym-before', client: gymPost(await load(BEFORE)), perRollout: [], mainPerRollout: [] });
  // warm-up, unmeasured
  for (const v of variants) await drive(v, base, 2000);
  const loads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const v of order) {
      const { rollouts, cpu, main } = await drive(v, base, ROUND_MS);
      v.perRollout.push((cpu / rollouts) * 1e6);
      v.mainPerRollout.push((main / rollouts) * 1e6);
    }
    loads.push(loadavg()[0]!);
    process.stderr.write(`round ${round + 1}/${ROUNDS}: ${variants.map((v) => `${v.name} ${v.perRollout.at(-1)!.toFixed(1)}`).join(', ')} µs per rollout\n`);
  }
  const ratio = (a: Variant, b: Variant) => median(a.perRollout.map((x, i) => x / b.perRollout[i]!));
  console.log(
    `\nnode ${process.version}, ${ROUNDS} rounds of ${ROUND_MS} ms, ${IN_FLIGHT} rollouts in flight, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (1 min)\n`,
  );
  console.log('| client | CPU µs per rollout (5 calls), median | main thread | rounds (min–max) | ÷ undici, per round |\n| --- | --- | --- | --- | --- |');
  for (const v of variants) {
    console.log(
      `| ${v.name} | ${median(v.perRollout).toFixed(1)} | ${median(v.mainPerRollout).toFixed(1)} | ${Math.min(...v.perRollout).toFixed(1)}–${Math.max(...v.perRollout).toFixed(1)} | ${ratio(v, variants[0]!).toFixed(3)} |`,
    );
  }
  const before = variants.find((v) => v.name === 'gym-before');
  if (before !== undefined) console.log(`\ngym ÷ gym-before, per round: ${ratio(variants[1]!, before).toFixed(3)}`);
} finally {
  for (const v of variants) await v.client.close();
  const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  child.kill('SIGTERM');
  await exited;
}
