// What telemetry costs a server that serves nothing: the CPU of the example environment's three
// servers over an idle stretch, telemetry off and `default` side by side (both started at once,
// measured over the same seconds). Time-based work (metric collection and export, runtime-metric
// sampling, timers) shows here; per rollout it weighs more the fewer rollouts a second a server serves.
// Run: npm run bench -- idle-cost   (BENCH_SECONDS)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startExampleEnvironment, telemetryEnv } from './support/example-environment.js';
import { processCpuSeconds } from './support/proc-cpu.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const scratch = mkdtempSync(join(tmpdir(), 'gym-idle-'));
try {
  const settings = { off: telemetryEnv('off'), default: telemetryEnv('default') };
  const running = await Promise.all(Object.entries(settings).map(async ([label, env]) => ({ label, env: await startExampleEnvironment(env, join(scratch, label)) })));
  await sleep(5000); // start-up work done
  const pids = running.map((r) => ({ label: r.label, pids: r.env.servers.map((s) => ({ name: s.display.name, pid: s.child.pid! })) }));
  const before = pids.map((r) => r.pids.map((p) => processCpuSeconds(p.pid)));
  await sleep(SECONDS * 1000);
  const after = pids.map((r) => r.pids.map((p) => processCpuSeconds(p.pid)));
  console.log(`\nidle CPU ms per second, ${SECONDS} s, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}\n`);
  console.log(`| setting | ${pids[0]!.pids.map((p) => p.name).join(' | ')} | all three |\n| --- | --- | --- | --- | --- |`);
  pids.forEach((r, i) => {
    const ms = r.pids.map((_, j) => ((after[i]![j]! - before[i]![j]!) / SECONDS) * 1000);
    console.log(`| ${r.label} | ${ms.map((m) => m.toFixed(1)).join(' | ')} | ${ms.reduce((a, b) => a + b, 0).toFixed(1)} |`);
  });
  await Promise.all(running.map((r) => r.env.stop()));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
