// Where a saturated environment spends its CPU: runs the example environment at saturation with
// one telemetry setting, with `--cpu-prof` in every server, and prints each process's CPU time per
// rollout (from /proc) and its top frames by self time.
// Run: npm run bench -- profile   (BENCH_PROFILE_GROUPS=default|per_rollout|off, BENCH_SECONDS, BENCH_CONCURRENCY, BENCH_TOP;
//   BENCH_PROFILE_ENV: extra environment of the servers, `K=V,K=V`, e.g. OTEL_TRACES_SAMPLER=always_off)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_ROW as ROW, startExampleEnvironment, telemetryEnv } from './support/example-environment.js';
import { runLoad } from './support/load.js';
import { summarizeProfile, telemetryFrames } from './support/cpu-profile.js';
import { mainThreadCpuSeconds, processCpuSeconds } from './support/proc-cpu.js';

const GROUPS = process.env.BENCH_PROFILE_GROUPS ?? 'default';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const TOP = Number(process.env.BENCH_TOP ?? 25);

const scratch = mkdtempSync(join(tmpdir(), 'gym-profile-'));
// BENCH_PROFILE_DIR keeps the .cpuprofile files (open them in Chrome DevTools)
const profiles = process.env.BENCH_PROFILE_DIR ?? join(scratch, 'profiles');
const env: NodeJS.ProcessEnv = {
  ...telemetryEnv(GROUPS),
  ...(TOP > 0 ? { GYM_SERVER_NODE_FLAGS: `--cpu-prof --cpu-prof-dir=${profiles}` } : {}),
  ...Object.fromEntries(
    (process.env.BENCH_PROFILE_ENV ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  ),
};
try {
  const running = await startExampleEnvironment(env, join(scratch, 'logs'));
  const agent = running.servers.find((s) => s.display.server_type === 'responses_api_agents')!;
  const pids = running.servers.map((s) => ({ name: s.display.name, pid: s.child.pid! }));
  const before = new Map(pids.map((p) => [p.name, processCpuSeconds(p.pid)]));
  const mainBefore = new Map(pids.map((p) => [p.name, mainThreadCpuSeconds(p.pid)]));
  const load = await runLoad(`${agent.display.url}/run`, ROW, { concurrency: CONCURRENCY, durationMs: SECONDS * 1000, warmupMs: 1000 });
  const after = new Map(pids.map((p) => [p.name, processCpuSeconds(p.pid)]));
  const mainAfter = new Map(pids.map((p) => [p.name, mainThreadCpuSeconds(p.pid)]));
  await running.stop();
  const total = load.completed + load.errors;
  console.log(`\n${GROUPS}: ${load.perSecond.toFixed(0)} rollouts/s at ${CONCURRENCY} in flight (${load.errors} errors), node ${process.version}\n`);
  // the other threads are V8's garbage-collector helpers and libuv's pool (file writes)
  const perRollout = (a: Map<string, number>, b: Map<string, number>, name: string) => ((a.get(name)! - b.get(name)!) / total) * 1e6;
  console.log('| process | CPU µs per rollout (user+sys, all threads) | main thread | other threads |');
  console.log('| --- | --- | --- | --- |');
  for (const { name } of pids) {
    const all = perRollout(after, before, name);
    const main = perRollout(mainAfter, mainBefore, name);
    console.log(`| ${name} | ${all.toFixed(0)} | ${main.toFixed(0)} | ${(all - main).toFixed(0)} |`);
  }
  for (const file of TOP > 0 ? readdirSync(profiles).sort() : []) {
    const pid = Number(file.split('.')[3]);
    const name = pids.find((p) => p.pid === pid)?.name ?? `pid ${pid}`;
    const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8'));
    const summary = summarizeProfile(profile, TOP);
    console.log(`\n#### ${name} (main thread, ${summary.totalMs.toFixed(0)} ms sampled)\n`);
    console.log('| self % | self ms | frame |');
    console.log('| --- | --- | --- |');
    for (const row of summary.rows) console.log(`| ${row.percent.toFixed(1)} | ${row.ms.toFixed(0)} | ${row.frame} |`);
    console.log('\n| stacks through | % of sampled | ms |');
    console.log('| --- | --- | --- |');
    for (const row of summary.through) console.log(`| ${row.group} | ${row.percent.toFixed(1)} | ${row.ms.toFixed(0)} |`);
    // per rollout of the measured seconds: the profile also holds start-up and the warm-up second
    const telemetry = telemetryFrames(profile, TOP);
    const us = (ms: number) => ((ms * 1000) / total).toFixed(1);
    console.log(`\n| telemetry's own frames (innermost frame of gym's code or a library; ${us(telemetry.totalMs)} µs per rollout in all) | µs per rollout |`);
    console.log('| --- | --- |');
    for (const row of telemetry.rows) console.log(`| ${row.frame} | ${us(row.ms)} |`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
