// Rollouts at high concurrency through the user's own path (`collectRollouts`, what `gym eval run`
// runs): the example environment, the simulated model answering each call after 1 s, and
// 16,384 rollouts in flight at once — with telemetry off and then on (`default`, console to the
// log files) in one run — against the rate the same environment reaches at saturation with 64 in
// flight and no model latency. Reports wall times, errors, peak RSS per process, spans written and
// whether every rollout's trace is complete (its gym.rollout with a /verify below it, no orphans,
// nothing left open). Budgets: wall on ≤ 1.15 × wall off; rollouts/s at 16,384 ≥
// 0.7 × rollouts/s at 64 in flight.
// Run: npm run bench -- concurrency   (BENCH_ROLLOUTS, BENCH_LATENCY_MS, BENCH_SECONDS; loopback only)
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleTraces, findAnomalies, findRollouts, readSpans } from '@gym/trace';
import { collectRollouts, loadConfig, startEnvironment } from '@gym/runtime';
import { freePort, readProcessRss } from '@gym/runtime/testing';
import { runLoad } from './support/load.js';
import { processCpuSeconds } from './support/proc-cpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROLLOUTS = Number(process.env.BENCH_ROLLOUTS ?? 16_384);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
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

/** All rollouts at once through collectRollouts, 1 s model latency. */
async function burst(label: string, env: NodeJS.ProcessEnv) {
  const { config, running, logDir } = await environment(label, env, LATENCY_MS);
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
    result = await collectRollouts({
      environment: { config: config.raw, instances: running.servers.map((s) => s.display) },
      input,
      output: join(scratch, `${label}.jsonl`),
      numRepeats: ROLLOUTS,
      concurrency: ROLLOUTS,
      disableAggregation: true,
    });
    for (const s of running.servers) cpu.set(s.display.process_name, processCpuSeconds(s.child.pid!) - cpuBefore.get(s.display.process_name)!);
    const own = process.cpuUsage(ownBefore);
    cpu.set('bench (collector + orchestrator)', (own.user + own.system) / 1e6);
  } finally {
    clearInterval(sampler);
    await running.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const failures = readFileSync(join(scratch, `${label}_failures.jsonl`), 'utf8').split('\n').filter(Boolean).slice(0, 3);
  return { seconds, succeeded: result.succeeded, failed: result.failed, failures, peak, cpu, logDir };
}

try {
  const rate64 = await saturationRate();
  process.stderr.write(`saturation at 64 in flight, no latency, telemetry off: ${rate64.toFixed(0)} rollouts/s\n`);
  const off = await burst('off', baseEnv);
  process.stderr.write(`${ROLLOUTS} in flight, telemetry off: ${off.seconds.toFixed(1)} s, ${off.failed} failed\n`);
  const on = await burst('on', telemetryOn);
  process.stderr.write(`${ROLLOUTS} in flight, telemetry on: ${on.seconds.toFixed(1)} s, ${on.failed} failed\n`);

  const { spans } = await readSpans([on.logDir]);
  const set = assembleTraces(spans);
  const rollouts = findRollouts(set);
  const complete = rollouts.filter((r) => r.verify !== null).length;
  const anomalies = findAnomalies(set, rollouts, { maxPerKind: 3 });
  const logs = readdirSync(on.logDir).map((f) => readFileSync(join(on.logDir, f), 'utf8')).join('\n');
  const dropWarnings = logs.match(/LENS_W0(06|09|10)[^\n]*/g) ?? [];

  console.log(`\nnode ${process.version}, model latency ${LATENCY_MS} ms × 2 calls per rollout\n`);
  console.log('| run | in flight | wall | rollouts/s | failed |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(`| saturation, no model latency, telemetry off | 64 | ${SECONDS} s | ${rate64.toFixed(0)} | 0 |`);
  for (const [name, run] of [['telemetry off', off], ['telemetry on (default, console)', on]] as const) {
    console.log(`| ${name} | ${ROLLOUTS} | ${run.seconds.toFixed(1)} s | ${(run.succeeded / run.seconds).toFixed(0)} | ${run.failed}${run.failures.length ? ` (${run.failures.map((f) => JSON.parse(f).error?.code).join(', ')})` : ''} |`);
  }
  console.log('\n| ratio | value | budget |');
  console.log('| --- | --- | --- |');
  console.log(`| wall, telemetry on ÷ off | ${(on.seconds / off.seconds).toFixed(3)} | ≤ 1.15 |`);
  console.log(`| rollouts/s at ${ROLLOUTS} (off) ÷ at 64 in flight | ${(off.succeeded / off.seconds / rate64).toFixed(3)} | ≥ 0.7 |`);
  console.log(`\ntelemetry on: ${spans.length} spans, ${complete} / ${ROLLOUTS} rollouts with a complete trace, ${set.orphanCount} orphans, ${anomalies.counts.unclosed_span} unclosed, ${dropWarnings.length} loss warnings`);
  console.log('\n| process | CPU s, off | CPU s, on | peak RSS MiB, off | peak RSS MiB, on |\n| --- | --- | --- | --- | --- |');
  for (const [name, mib] of on.peak) console.log(`| ${name} | ${(off.cpu.get(name) ?? 0).toFixed(1)} | ${(on.cpu.get(name) ?? 0).toFixed(1)} | ${(off.peak.get(name) ?? 0).toFixed(0)} | ${mib.toFixed(0)} |`);
  for (const w of dropWarnings) console.log(w);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
