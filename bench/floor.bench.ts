// gym beside the floor: the server CPU per rollout of gym with telemetry off and `default` (console
// to the log files), of the hand-written node:http + undici chain, and of that chain with the
// hand-written tracer writing the same spans in the same record (support/floor-tracer.ts). All four
// run in one process tree, warmed up, and are driven in turn at saturation in every round (the order
// rotates), so drift hits all alike; CPU comes from /proc: every thread of every server, and the
// agent's main thread alone (what a single Node server saturates first). Every telemetry budget in
// BENCHMARKS.md is a ratio of these figures.
// Run: npm run bench -- floor   (BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONCURRENCY (per setting), BENCH_WARMUP_SECONDS;
//   BENCH_FLOOR_MODE=together drives every setting at once in each round instead of in turn;
//   BENCH_FLOOR_OTLP=1 adds gym `default` over OTLP gRPC to a local receiver and the floor writing to a socket;
//   BENCH_FLOOR_OTLP_B_ENV=K=V,K=V adds a second OTLP setting with that extra server environment, side by side)
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOtlpReceiver } from '@gym/trace';
import { startBaselineChain } from './support/baseline-chain.js';
import { EXAMPLE_ROW as ROW, startExampleEnvironment, telemetryEnv } from './support/example-environment.js';
import { runLoad } from './support/load.js';
import { mainThreadCpuSeconds, processCpuSeconds } from './support/proc-cpu.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 6);
const WITH_OTLP = process.env.BENCH_FLOOR_OTLP === '1';
const OTLP_B_ENV: NodeJS.ProcessEnv | undefined =
  process.env.BENCH_FLOOR_OTLP_B_ENV === undefined
    ? undefined
    : Object.fromEntries(process.env.BENCH_FLOOR_OTLP_B_ENV.split(',').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
// `turns` (default): one setting at a time, the order rotating each round; `together`: all settings
// at once in every round, as cpu-ab does, so a busy machine's other work hits them all alike
const TOGETHER = process.env.BENCH_FLOOR_MODE === 'together';

/** One running setting: its agent, its servers (the agent's pid first) and the telemetry bytes it wrote so far. */
interface Running {
  label: string;
  agentUrl: string;
  pids: number[];
  bytesWritten(): number;
  stop(): Promise<void>;
}

const scratch = mkdtempSync(join(tmpdir(), 'gym-floor-'));
/** Bytes of the files under `dir` (0 before it exists). */
function directoryBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).reduce((sum, f) => {
    const stat = statSync(join(dir, f));
    return stat.isFile() ? sum + stat.size : sum;
  }, 0);
}

async function gym(label: string, env: NodeJS.ProcessEnv, bytes?: () => number): Promise<Running> {
  const logDir = join(scratch, label.replace(/\W+/g, '-'));
  const running = await startExampleEnvironment(env, logDir);
  const agent = running.servers.find((s) => s.display.server_type === 'responses_api_agents')!;
  const others = running.servers.filter((s) => s !== agent);
  return {
    label,
    agentUrl: agent.display.url,
    pids: [agent, ...others].map((s) => s.child.pid!),
    bytesWritten: bytes ?? (() => directoryBytes(logDir)),
    stop: () => running.stop(),
  };
}

async function chain(label: string, traceTo?: (role: string) => string, bytes?: () => number): Promise<Running> {
  const dir = join(scratch, label.replace(/\W+/g, '-'));
  mkdirSync(dir);
  const running = await startBaselineChain(traceTo);
  return { label, agentUrl: running.agentUrl, pids: running.pids, bytesWritten: bytes ?? (() => directoryBytes(dir)), stop: () => running.stop() };
}

/** A TCP sink that counts and drops what the floor writes to it: the floor's "collector". */
async function socketSink(): Promise<{ port: number; bytes(): number; close(): void }> {
  let bytes = 0;
  const server = createServer((socket) => socket.on('data', (chunk: Buffer) => (bytes += chunk.length)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, bytes: () => bytes, close: () => server.close() };
}

const OFF = 'gym, telemetry off';
const DEFAULT = 'gym, default (console to files)';
const CHAIN = 'chain';
const FLOOR = 'chain + floor tracer (files)';
const OTLP = 'gym, default (OTLP gRPC, local receiver)';
const FLOOR_SOCKET = 'chain + floor tracer (socket)';
const OTLP_B = `gym, default (OTLP gRPC, local receiver, ${process.env.BENCH_FLOOR_OTLP_B_ENV})`;

const running: Running[] = [];
const closers: Array<() => unknown> = [];
try {
  running.push(await gym(OFF, telemetryEnv('off')));
  running.push(await gym(DEFAULT, telemetryEnv('default')));
  running.push(await chain(CHAIN));
  running.push(await chain(FLOOR, (role) => `file:${join(scratch, FLOOR.replace(/\W+/g, '-'), `${role}.jsonl`)}`));
  if (WITH_OTLP) {
    const receiverDir = join(scratch, 'otlp-receiver');
    const receiver = await startOtlpReceiver({ outDir: receiverDir, grpcPort: 0, httpPort: null });
    closers.push(() => receiver.close());
    const otlpEnv = { ...telemetryEnv('default'), NEMO_GYM_OTEL_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.grpcPort}` };
    running.push(await gym(OTLP, otlpEnv, () => directoryBytes(receiverDir)));
    if (OTLP_B_ENV !== undefined) {
      const receiverB = join(scratch, 'otlp-receiver-b');
      const rxB = await startOtlpReceiver({ outDir: receiverB, grpcPort: 0, httpPort: null });
      closers.push(() => rxB.close());
      running.push(await gym(OTLP_B, { ...otlpEnv, ...OTLP_B_ENV, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${rxB.grpcPort}` }, () => directoryBytes(receiverB)));
    }
    const sink = await socketSink();
    closers.push(() => sink.close());
    running.push(
      await chain(
        FLOOR_SOCKET,
        () => `tcp:${sink.port}`,
        () => sink.bytes(),
      ),
    );
  }
  if (WARMUP_SECONDS > 0) {
    for (const r of running) await runLoad(`${r.agentUrl}/run`, ROW, { concurrency: CONCURRENCY, durationMs: WARMUP_SECONDS * 1000 });
  }
  const load = [loadavg()[0]!];
  // per setting, per round: server CPU µs per rollout (all threads), the agent's main thread, telemetry bytes
  const total = new Map<string, number[]>(running.map((r) => [r.label, []]));
  const agentMain = new Map<string, number[]>(running.map((r) => [r.label, []]));
  const bytes = new Map<string, number[]>(running.map((r) => [r.label, []]));
  /** Drives `settings` at once for one measured window and records each one's figures. */
  const measure = async (settings: Running[]) => {
    const loading = settings.map((r) => runLoad(`${r.agentUrl}/run`, ROW, { concurrency: CONCURRENCY, durationMs: SECONDS * 1000, warmupMs: 1000 }));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const cpu = settings.map((r) => r.pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0));
    const main = settings.map((r) => mainThreadCpuSeconds(r.pids[0]!));
    const written = settings.map((r) => r.bytesWritten());
    const results = await Promise.all(loading);
    for (const [i, r] of settings.entries()) {
      const result = results[i]!;
      if (result.errors > 0) throw new Error(`${r.label}: ${result.errors} failed rollouts`);
      const per = (x: number) => (x / result.completed) * 1e6;
      total.get(r.label)!.push(per(r.pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0) - cpu[i]!));
      agentMain.get(r.label)!.push(per(mainThreadCpuSeconds(r.pids[0]!) - main[i]!));
      bytes.get(r.label)!.push((r.bytesWritten() - written[i]!) / result.completed);
    }
  };
  for (let round = 0; round < ROUNDS; round++) {
    if (TOGETHER) await measure(running);
    else for (let i = 0; i < running.length; i++) await measure([running[(i + round) % running.length]!]);
    load.push(loadavg()[0]!);
    process.stderr.write(`round ${round + 1}/${ROUNDS}: ${running.map((r) => `${r.label} ${total.get(r.label)!.at(-1)!.toFixed(0)}`).join(' | ')} µs/rollout\n`);
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const spread = (xs: number[], digits: number) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
  console.log(
    `\n${TOGETHER ? 'all settings at once' : 'settings in turn'}, ${CONCURRENCY} in flight per setting, ${SECONDS} s per round, ${ROUNDS} rounds, node ${process.version}, load average ${load.map((l) => l.toFixed(1)).join(' → ')}\n`,
  );
  console.log('| setting | server CPU µs per rollout (median; rounds) | agent main thread µs per rollout | telemetry bytes per rollout |');
  console.log('| --- | --- | --- | --- |');
  for (const r of running) {
    const t = total.get(r.label)!;
    const m = agentMain.get(r.label)!;
    console.log(`| ${r.label} | ${median(t).toFixed(0)} (${t.map((x) => x.toFixed(0)).join(', ')}) | ${median(m).toFixed(0)} (${spread(m, 0)}) | ${median(bytes.get(r.label)!).toFixed(0)} |`);
  }

  // each ratio is taken within a round (the settings ran minutes apart at most), then its median and range
  const perRound = (f: (round: number) => number) => Array.from({ length: ROUNDS }, (_, i) => f(i));
  const at = (m: Map<string, number[]>, label: string, i: number) => m.get(label)![i]!;
  const added = (a: string, b: string) => perRound((i) => at(total, a, i) - at(total, b, i));
  const addedRow = (label: string, gymAdded: number[], floorAdded: number[]) =>
    `| ${label} | ${(median(gymAdded) / median(floorAdded)).toFixed(3)} | gym adds ${spread(gymAdded, 0)} µs, the floor ${spread(floorAdded, 0)} µs (medians ${median(gymAdded).toFixed(0)} and ${median(floorAdded).toFixed(0)}) | ≤ 1.25 |`;
  const rows: Array<[string, number[], string]> = [
    ['agent main thread, off ÷ `default`', perRound((i) => at(agentMain, OFF, i) / at(agentMain, DEFAULT, i)), '≥ 0.85'],
    ['total server CPU, `default` ÷ off (off CPU ÷ `default` CPU)', perRound((i) => at(total, OFF, i) / at(total, DEFAULT, i)), '≥ 0.80'],
    ['gym (off) ÷ the chain (chain CPU ÷ gym off CPU)', perRound((i) => at(total, CHAIN, i) / at(total, OFF, i)), '≥ 0.70'],
    ['the floor: chain ÷ chain + tracer (what writing the record costs it)', perRound((i) => at(total, CHAIN, i) / at(total, FLOOR, i)), '(reference)'],
    ['agent main thread, chain ÷ chain + tracer', perRound((i) => at(agentMain, CHAIN, i) / at(agentMain, FLOOR, i)), '(reference)'],
  ];
  if (WITH_OTLP) rows.push(['total server CPU, OTLP `default` ÷ off', perRound((i) => at(total, OFF, i) / at(total, OTLP, i)), '(reference)']);
  console.log('\n| ratio (by CPU per rollout) | median | range over rounds | budget |');
  console.log('| --- | --- | --- | --- |');
  // telemetry's added CPU: the ratio of the median differences (a ratio per round divides by a small, noisy difference)
  console.log(addedRow('CPU `default` adds ÷ CPU the floor tracer adds (files)', added(DEFAULT, OFF), added(FLOOR, CHAIN)));
  if (WITH_OTLP) console.log(addedRow('CPU OTLP `default` adds ÷ CPU the floor tracer adds (socket)', added(OTLP, OFF), added(FLOOR_SOCKET, CHAIN)));
  if (WITH_OTLP && OTLP_B_ENV !== undefined) console.log(addedRow(`same, with ${process.env.BENCH_FLOOR_OTLP_B_ENV}`, added(OTLP_B, OFF), added(FLOOR_SOCKET, CHAIN)));
  for (const [label, xs, budget] of rows) console.log(`| ${label} | ${median(xs).toFixed(3)} | ${spread(xs, 3)} | ${budget} |`);
} finally {
  for (const r of running) await r.stop();
  for (const close of closers) await close();
  rmSync(scratch, { recursive: true, force: true });
}
