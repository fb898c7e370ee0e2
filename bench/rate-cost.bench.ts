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
import { EXAMPLE_ROW as ROW, startExampleEnvironment, telemetryEnv } from './support/example-environment.js';
import { runLoad } from './support/load.js';

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
  const running = await startExampleEnvironment(telemetryEnv(GROUPS), join(scratch, 'logs'));
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
