// Rollouts at high concurrency through the user's own path (`collectRollouts`, what `gym eval run`
// runs): the example environment, the simulated model answering each call after 1 s, and
// 16,384 rollouts in flight at once — with telemetry off and then on (`default`, console to the
// log files) in one run — against the rate the same environment reaches at saturation with 64 in
// flight and no model latency, through the same collector (as `gym eval run --concurrency 64`:
// the light closed-loop load generator of earlier rounds costs a fraction of the collector's CPU,
// which on two shared cores made the 16k path look slower than it is). Reports wall times, errors, peak RSS per process, spans written and
// whether every rollout's trace is complete (its gym.rollout with a /verify below it, no orphans,
// nothing left open). Budgets: wall on ≤ 1.15 × wall off; rollouts/s at 16,384 ≥
// 0.7 × rollouts/s at 64 in flight.
// Run: npm run bench -- concurrency   (BENCH_ROLLOUTS, BENCH_LATENCY_MS, BENCH_SECONDS, BENCH_SATURATION_ROLLOUTS,
//   BENCH_WARMUP_ROLLOUTS; loopback only)
//   BENCH_PARTS=off   only the telemetry-off burst (with its CPU per process): for comparing Node
//                     flags (GYM_SERVER_NODE_FLAGS) in two runs started at the same time
//   BENCH_PARTS=rate  the 64-in-flight run through the collector and the telemetry-off burst: the
//                     rollouts/s budget alone
//   BENCH_PARTS=telemetry  telemetry's CPU per rollout at 64 and at BENCH_ROLLOUTS in flight, both with
//                     the model latency: off and `default` at each, the servers' CPU (on − off) per
//                     rollout, and the ratio at BENCH_ROLLOUTS ÷ at 64 (budget ≤ 1.1);
//                     BENCH_ROLLOUTS_AT_64 rollouts at 64 in flight (default 1024: about 35 s at 1 s latency)
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleTraces, findAnomalies, findRollouts, readSpans } from '@gym/trace';
import { loadConfig } from '@gym/server';
import { collectRollouts, startEnvironment } from '@gym/runtime';
import { freePort } from '@gym/server/testing';
import { readProcessRss } from '@gym/runtime/testing';
import { runLoad } from './support/load.js';
import { processCpuSeconds } from './support/proc-cpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROLLOUTS = Number(process.env.BENCH_ROLLOUTS ?? 16_384);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ONLY_OFF = process.env.BENCH_PARTS === 'off';
/** Rollouts of the 64-in-flight saturation run through the collector (BENCH_SATURATION_ROLLOUTS). */
const SATURATION_ROLLOUTS = Number(process.env.BENCH_SATURATION_ROLLOUTS ?? 8192);
/** Rollouts each run's servers serve before it is measured (BENCH_WARMUP_ROLLOUTS). */
const WARMUP_ROLLOUTS = Number(process.env.BENCH_WARMUP_ROLLOUTS ?? 1024);
const ROW = readFileSync(join(ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;
const scratch = mkdtempSync(join(tmpdir(), 'gym-concurrency-'));
const input = join(scratch, 'one-task.jsonl');
writeFileSync(input, `${ROW}\n`);
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NEMO_') && !k.startsWith('OTEL_')));
const telemetryOn = { ...baseEnv, NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'default' };
const rssMiB = (pid: number) => (readProcessRss(pid) ?? 0) / 2 ** 20;

async function environment(label: string, env: NodeJS.ProcessEnv, latencyMs: number) {
  const config = await loadConfig({
    rootDir: ROOT,
    selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] },
    overrides: [`++head_server.port=${await freePort()}`, `++policy_model.responses_api_models.simulated_model.latency.fixed_ms=${latencyMs}`],
  });
  const logDir = join(scratch, label);
  const running = await startEnvironment({ config, roots: [ROOT], logDir, env });
  return { config, running, logDir };
}

/** Rollouts/s at saturation: 64 in flight, no model latency, telemetry off. */
async function saturationRate(): Promise<number> {
  const { running } = await environment('saturation', baseEnv, 0);
  try {
    const agent = running.servers.find((s) => s.display.server_type === 'responses_api_agents')!.display.url;
    const load = await runLoad(`${agent}/run`, ROW, { concurrency: 64, durationMs: SECONDS * 1000 });
    if (load.errors > 0) throw new Error(`saturation run: ${load.errors} errors`);
    return load.perSecond;
  } finally {
    await running.stop();
  }
}

/** Rollouts through collectRollouts (what `gym eval run` runs): by default all at once, 1 s model latency. */
async function burst(
  label: string,
  env: NodeJS.ProcessEnv,
  shape: { rollouts: number; concurrency: number; latencyMs: number } = { rollouts: ROLLOUTS, concurrency: ROLLOUTS, latencyMs: LATENCY_MS },
) {
  const { config, running, logDir } = await environment(label, env, shape.latencyMs);
  const collect = (rollouts: number, concurrency: number, output: string) =>
    collectRollouts({
      environment: { config: config.raw, instances: running.servers.map((s) => s.display) },
      input,
      output: join(scratch, output),
      numRepeats: rollouts,
      concurrency,
      disableAggregation: true,
    });
  // unmeasured: fresh servers run unoptimised code at about twice the CPU per rollout for their
  // first seconds, which would weigh more on a short run than on a long one
  if (WARMUP_ROLLOUTS > 0) await collect(WARMUP_ROLLOUTS, Math.min(shape.concurrency, WARMUP_ROLLOUTS), `${label}-warmup.jsonl`);
  const peak = new Map<string, number>();
  const sampler = setInterval(() => {
    for (const s of running.servers) {
      try {
        peak.set(s.display.process_name, Math.max(peak.get(s.display.process_name) ?? 0, rssMiB(s.child.pid!)));
      } catch {
        // the process may be gone
      }
    }
    peak.set('bench (collector + orchestrator)', Math.max(peak.get('bench (collector + orchestrator)') ?? 0, process.memoryUsage().rss / 2 ** 20));
  }, 250);
  const started = performance.now();
  const cpuBefore = new Map(running.servers.map((s) => [s.display.process_name, processCpuSeconds(s.child.pid!)]));
  const ownBefore = process.cpuUsage();
  const cpu = new Map<string, number>();
  let result;
  try {
    result = await collect(shape.rollouts, shape.concurrency, `${label}.jsonl`);
    for (const s of running.servers) cpu.set(s.display.process_name, processCpuSeconds(s.child.pid!) - cpuBefore.get(s.display.process_name)!);
    const own = process.cpuUsage(ownBefore);
    cpu.set('bench (collector + orchestrator)', (own.user + own.system) / 1e6);
  } finally {
    clearInterval(sampler);
    await running.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const failures = readFileSync(join(scratch, `${label}_failures.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, 3);
  return { seconds, succeeded: result.succeeded, failed: result.failed, failures, peak, cpu, logDir };
}

try {
  if (ONLY_OFF) {
    const off = await burst('off', baseEnv);
    console.log(`\n${ROLLOUTS} in flight, telemetry off, ${process.env.GYM_SERVER_NODE_FLAGS ?? 'no extra node flags'}: ${off.seconds.toFixed(1)} s, ${off.failed} failed\n`);
    console.log('| process | CPU s | CPU µs per rollout | peak RSS MiB |\n| --- | --- | --- | --- |');
    for (const [name, seconds] of off.cpu) console.log(`| ${name} | ${seconds.toFixed(1)} | ${((seconds / ROLLOUTS) * 1e6).toFixed(0)} | ${(off.peak.get(name) ?? 0).toFixed(0)} |`);
  } else if (process.env.BENCH_PARTS === 'rate') {
    const sat = await burst('saturation-collector', baseEnv, { rollouts: SATURATION_ROLLOUTS, concurrency: 64, latencyMs: 0 });
    const off = await burst('off', baseEnv);
    console.log(`\n| run | in flight | wall | rollouts/s | CPU µs per rollout, all processes |\n| --- | --- | --- | --- | --- |`);
    console.log(`| through the collector, no model latency, telemetry off | 64 | ${sat.seconds.toFixed(1)} s | ${(sat.succeeded / sat.seconds).toFixed(0)} | ${cpuPerRollout(sat).toFixed(0)} |`);
    console.log(
      `| through the collector, ${LATENCY_MS} ms model latency, telemetry off | ${ROLLOUTS} | ${off.seconds.toFixed(1)} s | ${(off.succeeded / off.seconds).toFixed(0)} | ${cpuPerRollout(off).toFixed(0)} |`,
    );
    console.log(
      `\nrollouts/s at ${ROLLOUTS} ÷ at 64: ${(off.succeeded / off.seconds / (sat.succeeded / sat.seconds)).toFixed(3)}; CPU per rollout at 64 ÷ at ${ROLLOUTS}: ${(cpuPerRollout(sat) / cpuPerRollout(off)).toFixed(3)} (budget ≥ 0.7)`,
    );
    console.log('\n| process | CPU µs per rollout at 64 | at 16k |\n| --- | --- | --- |');
    for (const [name, seconds] of off.cpu) console.log(`| ${name} | ${(((sat.cpu.get(name) ?? 0) / sat.succeeded) * 1e6).toFixed(0)} | ${((seconds / off.succeeded) * 1e6).toFixed(0)} |`);
  } else if (process.env.BENCH_PARTS === 'telemetry') await telemetryByConcurrency();
  else await fullRun();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/** CPU µs per rollout of a run's servers alone (the collector excluded: telemetry is the servers'). */
function serverCpuPerRollout(run: { cpu: Map<string, number>; succeeded: number }): number {
  let seconds = 0;
  for (const [name, s] of run.cpu) if (!name.startsWith('bench')) seconds += s;
  return (seconds / run.succeeded) * 1e6;
}

/**
 * Telemetry's CPU per rollout at 64 in flight and at ROLLOUTS in flight, the model latency the same
 * in both: whether what telemetry costs a rollout grows with concurrency (more open spans, larger
 * batches, timers firing under load). Off and on are run in turn at each size, on fresh servers.
 */
async function telemetryByConcurrency(): Promise<void> {
  const at64 = Number(process.env.BENCH_ROLLOUTS_AT_64 ?? 1024);
  const shape64 = { rollouts: at64, concurrency: 64, latencyMs: LATENCY_MS };
  const runs = {
    off64: await burst('off-64', baseEnv, shape64),
    on64: await burst('on-64', telemetryOn, shape64),
    offMany: await burst('off-many', baseEnv),
    onMany: await burst('on-many', telemetryOn),
  };
  for (const [label, run] of Object.entries(runs)) {
    process.stderr.write(`${label}: ${run.succeeded} rollouts in ${run.seconds.toFixed(1)} s, ${run.failed} failed, servers ${serverCpuPerRollout(run).toFixed(0)} µs per rollout\n`);
  }
  const added64 = serverCpuPerRollout(runs.on64) - serverCpuPerRollout(runs.off64);
  const addedMany = serverCpuPerRollout(runs.onMany) - serverCpuPerRollout(runs.offMany);
  console.log(
    `\nnode ${process.version}, model latency ${LATENCY_MS} ms × 2 calls per rollout, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  console.log("| in flight | rollouts | servers' CPU µs per rollout, off | on (`default`, console) | telemetry adds | failed (off, on) |\n| --- | --- | --- | --- | --- | --- |");
  console.log(`| 64 | ${at64} | ${serverCpuPerRollout(runs.off64).toFixed(0)} | ${serverCpuPerRollout(runs.on64).toFixed(0)} | ${added64.toFixed(0)} | ${runs.off64.failed}, ${runs.on64.failed} |`);
  console.log(
    `| ${ROLLOUTS} | ${ROLLOUTS} | ${serverCpuPerRollout(runs.offMany).toFixed(0)} | ${serverCpuPerRollout(runs.onMany).toFixed(0)} | ${addedMany.toFixed(0)} | ${runs.offMany.failed}, ${runs.onMany.failed} |`,
  );
  console.log(`\ntelemetry's CPU per rollout at ${ROLLOUTS} ÷ at 64: ${(addedMany / added64).toFixed(3)} (budget ≤ 1.1)`);
}

/** CPU µs per rollout of a run, every process (servers, and the collector with the orchestrator). */
function cpuPerRollout(run: { cpu: Map<string, number>; succeeded: number }): number {
  return ([...run.cpu.values()].reduce((a, b) => a + b, 0) / run.succeeded) * 1e6;
}

async function fullRun(): Promise<void> {
  // the load generator's own rate, for comparison with earlier rounds (it costs far less CPU than the collector)
  const rate64Load = await saturationRate();
  process.stderr.write(`saturation at 64 in flight, no latency, telemetry off, light load generator: ${rate64Load.toFixed(0)} rollouts/s\n`);
  // the budget's 64-in-flight rate through the same path as the 16k burst: the collector, as `gym eval run --concurrency 64`
  const sat = await burst('saturation-collector', baseEnv, { rollouts: SATURATION_ROLLOUTS, concurrency: 64, latencyMs: 0 });
  const rate64 = sat.succeeded / sat.seconds;
  process.stderr.write(`saturation at 64 in flight, no latency, telemetry off, through the collector: ${rate64.toFixed(0)} rollouts/s\n`);
  const off = await burst('off', baseEnv);
  process.stderr.write(`${ROLLOUTS} in flight, telemetry off: ${off.seconds.toFixed(1)} s, ${off.failed} failed\n`);
  const on = await burst('on', telemetryOn);
  process.stderr.write(`${ROLLOUTS} in flight, telemetry on: ${on.seconds.toFixed(1)} s, ${on.failed} failed\n`);

  const { spans } = await readSpans([on.logDir]);
  const set = assembleTraces(spans);
  const rollouts = findRollouts(set);
  const complete = rollouts.filter((r) => r.verify !== null).length;
  const anomalies = findAnomalies(set, rollouts, { maxPerKind: 3 });
  const logs = readdirSync(on.logDir)
    .map((f) => readFileSync(join(on.logDir, f), 'utf8'))
    .join('\n');
  const dropWarnings = logs.match(/LENS_W0(06|09|10)[^\n]*/g) ?? [];

  console.log(`\nnode ${process.version}, model latency ${LATENCY_MS} ms × 2 calls per rollout\n`);
  console.log('| run | in flight | wall | rollouts/s | failed |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(`| saturation, no model latency, telemetry off, light load generator (not the user's path) | 64 | ${SECONDS} s | ${rate64Load.toFixed(0)} | 0 |`);
  console.log(`| saturation, no model latency, telemetry off, through the collector | 64 | ${sat.seconds.toFixed(1)} s | ${rate64.toFixed(0)} | ${sat.failed} |`);
  for (const [name, run] of [
    ['telemetry off', off],
    ['telemetry on (default, console)', on],
  ] as const) {
    console.log(
      `| ${name} | ${ROLLOUTS} | ${run.seconds.toFixed(1)} s | ${(run.succeeded / run.seconds).toFixed(0)} | ${run.failed}${run.failures.length ? ` (${run.failures.map((f) => JSON.parse(f).error?.code).join(', ')})` : ''} |`,
    );
  }
  console.log('\n| ratio | value | budget |');
  console.log('| --- | --- | --- |');
  console.log(`| wall, telemetry on ÷ off | ${(on.seconds / off.seconds).toFixed(3)} | ≤ 1.15 |`);
  console.log(`| rollouts/s at ${ROLLOUTS} (off) ÷ at 64 in flight, both through the collector | ${(off.succeeded / off.seconds / rate64).toFixed(3)} | ≥ 0.7 |`);
  console.log(
    `| the same by CPU per rollout, all processes: at 64 ÷ at ${ROLLOUTS} (${cpuPerRollout(sat).toFixed(0)} / ${cpuPerRollout(off).toFixed(0)} µs) | ${(cpuPerRollout(sat) / cpuPerRollout(off)).toFixed(3)} | (≥ 0.7 where CPU is what runs out) |`,
  );
  console.log(`| rollouts/s at ${ROLLOUTS} (off) ÷ the light load generator's rate at 64 (earlier rounds' ratio) | ${(off.succeeded / off.seconds / rate64Load).toFixed(3)} | |`);
  console.log(
    `\ntelemetry on: ${spans.length} spans, ${complete} / ${rollouts.length} rollouts with a complete trace (the warm-up's included), ${set.orphanCount} orphans, ${anomalies.counts.unclosed_span} unclosed, ${dropWarnings.length} loss warnings`,
  );
  console.log(
    `\n| process | CPU µs per rollout at 64 (collector) | CPU s, off | CPU s, on | CPU µs per rollout, off | peak RSS MiB, off | peak RSS MiB, on |\n| --- | --- | --- | --- | --- | --- | --- |`,
  );
  for (const [name, mib] of on.peak) {
    const perRollout = (run: typeof off, n: number) => (((run.cpu.get(name) ?? 0) / n) * 1e6).toFixed(0);
    console.log(
      `| ${name} | ${perRollout(sat, sat.succeeded)} | ${(off.cpu.get(name) ?? 0).toFixed(1)} | ${(on.cpu.get(name) ?? 0).toFixed(1)} | ${perRollout(off, off.succeeded)} | ${(off.peak.get(name) ?? 0).toFixed(0)} | ${mib.toFixed(0)} |`,
    );
  }
  for (const w of dropWarnings) console.log(w);
}
