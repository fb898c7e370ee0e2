// What one rollout costs each server at different request rates: CPU per rollout (user and
// system), write and read syscalls per rollout, from /proc, for a closed loop of 32, 4 and 1
// rollouts in flight against the example environment. A server that is not the bottleneck wakes up
// for nearly every message at low rates, and pays for it: the same work costs it more CPU per
// rollout the less busy it is — which is how telemetry's cost in the agent (the process at 100 %)
// comes back multiplied in the others.
// Run: npm run bench -- rate-cost   (BENCH_GROUPS=off|default|…, BENCH_CONCURRENCIES=32,4,1, BENCH_SECONDS=8)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, startEnvironment } from '@gym/runtime';
import { freePort } from '@gym/runtime/testing';
import { runLoad } from './support/load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROW = readFileSync(join(ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;
const GROUPS = process.env.BENCH_GROUPS ?? 'off';
const CONCURRENCIES = (process.env.BENCH_CONCURRENCIES ?? '32,4,1').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const TICKS_PER_SECOND = 100;

interface Sample {
  user: number;
  system: number;
  writes: number;
  reads: number;
}

function sample(pid: number): Sample {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const io = Object.fromEntries(
    readFileSync(`/proc/${pid}/io`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(': ') as [string, string]),
  );
  return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND, writes: Number(io['syscw']), reads: Number(io['syscr']) };
}

const scratch = mkdtempSync(join(tmpdir(), 'gym-rate-cost-'));
try {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NEMO_') && !k.startsWith('OTEL_')));
  const env = GROUPS === 'off' ? base : { ...base, NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: GROUPS };
  const config = await loadConfig({
    rootDir: ROOT,
    selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] },
    overrides: [`++head_server.port=${await freePort()}`],
  });
  const running = await startEnvironment({ config, roots: [ROOT], logDir: join(scratch, 'logs'), env });
  const agent = running.servers.find((s) => s.display.server_type === 'responses_api_agents')!;
  await runLoad(`${agent.display.url}/run`, ROW, { concurrency: 32, durationMs: 4000 });
  console.log(`\ntelemetry ${GROUPS}, ${SECONDS} s per rate, node ${process.version}\n`);
  console.log('| in flight | rollouts/s | server | CPU µs per rollout | user | system | writes per rollout | reads per rollout |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const concurrency of CONCURRENCIES) {
    const before = running.servers.map((s) => sample(s.child.pid!));
    const load = await runLoad(`${agent.display.url}/run`, ROW, { concurrency, durationMs: SECONDS * 1000 });
    for (const [i, server] of running.servers.entries()) {
      const a = sample(server.child.pid!);
      const b = before[i]!;
      const per = (x: number) => (x / load.completed) * 1e6;
      console.log(
        `| ${concurrency} | ${load.perSecond.toFixed(0)} | ${server.display.name} | ${per(a.user + a.system - b.user - b.system).toFixed(0)} | ${per(a.user - b.user).toFixed(0)} | ${per(a.system - b.system).toFixed(0)} | ${((a.writes - b.writes) / load.completed).toFixed(2)} | ${((a.reads - b.reads) / load.completed).toFixed(2)} |`,
      );
    }
  }
  await running.stop();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
