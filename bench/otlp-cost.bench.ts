// Where the CPU of the OTLP variant of `throughput` goes: the three servers (their exporters) and
// this process, which runs @gym/trace's OTLP receiver (decoding gRPC, writing JSON lines) and the
// load generator — against the same environment exporting to console files, and with telemetry off.
// Settings run one after another in rounds; CPU per rollout from /proc (servers) and
// process.cpuUsage() (this process).
// Run: npm run bench -- otlp-cost   (BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONCURRENCY)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOtlpReceiver } from '@gym/trace';
import { EXAMPLE_ROW as ROW, startExampleEnvironment, telemetryEnv } from './support/example-environment.js';
import { runLoad } from './support/load.js';
import { processCpuSeconds } from './support/proc-cpu.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);

interface Row {
  setting: string;
  perSecond: number;
  servers: number[];
  self: number;
}

const scratch = mkdtempSync(join(tmpdir(), 'gym-otlp-cost-'));
const names: string[] = [];

async function measure(setting: string, env: NodeJS.ProcessEnv): Promise<Row> {
  const running = await startExampleEnvironment(env, join(scratch, `${setting}-${Date.now()}`));
  const agent = running.servers.find((s) => s.display.server_type === 'responses_api_agents')!;
  if (names.length === 0) names.push(...running.servers.map((s) => s.display.name));
  const pids = running.servers.map((s) => s.child.pid!);
  try {
    // unmeasured: a fresh server's first seconds run unoptimised code
    await runLoad(`${agent.display.url}/run`, ROW, { concurrency: CONCURRENCY, durationMs: 3000 });
    const before = pids.map(processCpuSeconds);
    const self = process.cpuUsage();
    const load = await runLoad(`${agent.display.url}/run`, ROW, { concurrency: CONCURRENCY, durationMs: SECONDS * 1000 });
    const selfUs = process.cpuUsage(self);
    const after = pids.map(processCpuSeconds);
    const n = load.completed;
    return { setting, perSecond: load.perSecond, servers: after.map((a, i) => ((a - before[i]!) / n) * 1e6), self: (selfUs.user + selfUs.system) / n };
  } finally {
    await running.stop();
  }
}

async function otlp(): Promise<Row> {
  const receiver = await startOtlpReceiver({ outDir: join(scratch, `otlp-${Date.now()}`), grpcPort: 0, httpPort: null });
  try {
    return await measure('default, OTLP gRPC to the receiver in this process', {
      ...telemetryEnv('default'),
      NEMO_GYM_OTEL_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.grpcPort}`,
    });
  } finally {
    await receiver.close();
  }
}

const rows: Row[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    rows.push(await measure('off', telemetryEnv('off')));
    rows.push(await measure('default, console to the log files', telemetryEnv('default')));
    rows.push(await otlp());
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`\nconcurrency ${CONCURRENCY}, ${SECONDS} s per run, median of ${ROUNDS} rounds, node ${process.version}; CPU µs per rollout\n`);
console.log(`| setting | rollouts/s | ${names.join(' | ')} | servers | this process (receiver + load) |`);
console.log(`| --- | --- | ${names.map(() => '---').join(' | ')} | --- | --- |`);
for (const setting of [...new Set(rows.map((r) => r.setting))]) {
  const of = rows.filter((r) => r.setting === setting);
  const servers = names.map((_, i) => median(of.map((r) => r.servers[i]!)));
  const cells = [median(of.map((r) => r.perSecond)), ...servers, median(of.map((r) => r.servers.reduce((a, b) => a + b, 0))), median(of.map((r) => r.self))];
  console.log(`| ${setting} | ${cells.map((c) => c.toFixed(0)).join(' | ')} |`);
}
