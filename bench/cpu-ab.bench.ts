// CPU per rollout of two settings measured at the same time: two copies of the example environment
// run side by side, each driven at saturation by its own closed loop, and every server's CPU time
// (from /proc) is divided by the rollouts it served. Both copies share whatever else the machine is
// doing, so the ratio holds on a busy machine where a throughput ratio taken minutes apart does not.
// At saturation on a CPU-bound machine, throughput is inversely proportional to CPU per rollout.
//
// Run: npm run bench -- cpu-ab
//   BENCH_A / BENCH_B         span groups of each copy, or `off` (default: off / default)
//   BENCH_A_ENV / BENCH_B_ENV extra environment of each copy's servers, `K=V,K=V`
//                             (e.g. OTEL_BSP_MAX_EXPORT_BATCH_SIZE=512, GYM_SERVER_NODE_FLAGS=--max-semi-space-size=32)
//   BENCH_A_TREE / BENCH_B_TREE another checkout of the repository, built (`npm ci`), whose
//                             servers that copy runs: a change side by side with the tree before it
//   BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONCURRENCY (per copy)
//   BENCH_WARMUP_SECONDS      an unmeasured first round (default 6): the first seconds of a fresh
//                             server run unoptimised code and cost twice the CPU of later ones
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXAMPLE_ROW as ROW, startExampleEnvironment, telemetryEnv } from './support/example-environment.js';
import { runLoad } from './support/load.js';
import { processCpuSeconds } from './support/proc-cpu.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 6);

interface Variant {
  label: string;
  env: NodeJS.ProcessEnv;
  start: typeof startExampleEnvironment;
}

async function variant(groups: string, extra: string | undefined, tree: string | undefined): Promise<Variant> {
  const pairs = (extra ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as const);
  // another tree's own support module starts its own servers (its config, its build)
  const start =
    tree === undefined
      ? startExampleEnvironment
      : ((await import(join(resolve(tree), 'bench/support/example-environment.ts'))) as { startExampleEnvironment: typeof startExampleEnvironment }).startExampleEnvironment;
  const label = [groups, ...pairs.map(([k, v]) => `${k}=${v}`), ...(tree === undefined ? [] : [`(${tree})`])].join(' ');
  return { label, env: { ...telemetryEnv(groups), ...Object.fromEntries(pairs) }, start };
}

const variants = [
  await variant(process.env.BENCH_A ?? 'off', process.env.BENCH_A_ENV, process.env.BENCH_A_TREE),
  await variant(process.env.BENCH_B ?? 'default', process.env.BENCH_B_ENV, process.env.BENCH_B_TREE),
];
const scratch = mkdtempSync(join(tmpdir(), 'gym-cpu-ab-'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const running = [];
  for (const [i, v] of variants.entries()) {
    running.push(await v.start(v.env, join(scratch, `logs-${i}`)));
  }
  if (WARMUP_SECONDS > 0) {
    await Promise.all(
      running.map((env) => {
        const agent = env.servers.find((s) => s.display.server_type === 'responses_api_agents')!;
        return runLoad(`${agent.display.url}/run`, ROW, { concurrency: CONCURRENCY, durationMs: WARMUP_SECONDS * 1000 });
      }),
    );
  }
  const perRollout: number[][] = variants.map(() => []);
  const rates: number[][] = variants.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const pids = running.map((env) => env.servers.map((s) => s.child.pid!));
    const cpu = () => pids.map((list) => list.reduce((sum, pid) => sum + processCpuSeconds(pid), 0));
    // both copies warm up, then are measured over the same seconds
    const loads = running.map((env) => {
      const agent = env.servers.find((s) => s.display.server_type === 'responses_api_agents')!;
      return runLoad(`${agent.display.url}/run`, ROW, { concurrency: CONCURRENCY, durationMs: SECONDS * 1000, warmupMs: 1500 });
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const before = cpu();
    const results = await Promise.all(loads);
    const after = cpu();
    for (const [i, result] of results.entries()) {
      if (result.errors > 0) throw new Error(`${variants[i]!.label}: ${result.errors} failed rollouts`);
      perRollout[i]!.push(((after[i]! - before[i]!) / result.completed) * 1e6);
      rates[i]!.push(result.perSecond);
    }
    console.log(`round ${round + 1}: ${variants.map((v, i) => `${v.label} ${perRollout[i]!.at(-1)!.toFixed(0)} µs/rollout`).join(' | ')}`);
  }
  for (const env of running) await env.stop();
  console.log(`\n${CONCURRENCY} in flight per copy, ${SECONDS} s per round, median of ${ROUNDS} rounds, node ${process.version}\n`);
  console.log('| variant | server CPU µs per rollout | runs | rollouts/s (shared machine) |');
  console.log('| --- | --- | --- | --- |');
  for (const [i, v] of variants.entries()) {
    console.log(`| ${v.label} | ${median(perRollout[i]!).toFixed(0)} | ${perRollout[i]!.map((x) => x.toFixed(0)).join(', ')} | ${median(rates[i]!).toFixed(0)} |`);
  }
  const ratio = median(perRollout[0]!) / median(perRollout[1]!);
  const perRound = median(perRollout[0]!.map((a, round) => a / perRollout[1]![round]!));
  console.log(`\nCPU per rollout, A ÷ B: ${ratio.toFixed(3)}; median of the rounds' ratios ${perRound.toFixed(3)} (at saturation, B's throughput ÷ A's when the servers' CPU is what runs out)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
