// Rollouts per second at saturation through agent → model/resources (simulated model, zero
// latency), for gym with telemetry off, without lens installed, with the `default` and
// `per_rollout` presets exporting to console (log files), `default` exporting over OTLP gRPC to a
// local receiver (@gym/trace's, in the bench process), with OpenTelemetry's auto-instrumentation
// instead of gym's own, with telemetry off and the agent at
// `num_workers: 2` (two cluster workers on its port), and for a hand-written node:http + undici
// chain making the same hops. Variants alternate in rounds so drift hits all alike; each also
// reports its servers' CPU per rollout (from /proc), which a busy machine distorts less than the rate.
// Run: npm run bench -- throughput   (BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONCURRENCY to tune;
// BENCH_VARIANTS=<substring>,<substring>… runs only the variants whose name contains one of them,
// case-insensitively, e.g. BENCH_VARIANTS='telemetry off' for the agent at 1 and 2 workers (separated
// by `;` instead, the substrings may hold commas: BENCH_VARIANTS='gym, telemetry off;hand-written');
// ratios whose two variants did not both run are left out)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@gym/server';
import { startEnvironment } from '@gym/runtime';
import { startOtlpReceiver } from '@gym/trace';
import { freePort } from '@gym/server/testing';
import { startBaselineChain } from './support/baseline-chain.js';
import { runLoad } from './support/load.js';
import { processCpuSeconds } from './support/proc-cpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const VARIANT_FILTER = (process.env.BENCH_VARIANTS ?? '')
  .split((process.env.BENCH_VARIANTS ?? '').includes(';') ? ';' : ',')
  .map((s) => s.trim().toLowerCase())
  .filter((s) => s.length > 0);
const AGENT = 'example_single_tool_call_simple_agent';
const ROW = readFileSync(join(ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;

const scratch = mkdtempSync(join(tmpdir(), 'gym-bench-'));
const blocker = join(scratch, 'block-lens.mjs');
writeFileSync(
  blocker,
  `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent('export async function resolve(s, c, n) { if (s === "@gym/lens" || s.startsWith("@opentelemetry/")) { const e = new Error("blocked " + s); e.code = "ERR_MODULE_NOT_FOUND"; throw e; } return n(s, c); }'));\n`,
);

const AUTO = fileURLToPath(new URL('./support/auto-instrumentation.ts', import.meta.url));
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NEMO_') && !k.startsWith('OTEL_')));
const telemetry = (groups: string) => ({ ...baseEnv, NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: groups });

/** A started variant: its agent, and the pids whose CPU it spends (empty where /proc cannot see it all: cluster workers). */
interface Started {
  agentUrl: string;
  pids: number[];
  stop(): Promise<void>;
}

interface Variant {
  name: string;
  start(): Promise<Started>;
}

async function gym(env: NodeJS.ProcessEnv, label: string, overrides: string[] = []): Promise<Started> {
  const config = await loadConfig({
    rootDir: ROOT,
    selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] },
    overrides: [`++head_server.port=${await freePort()}`, ...overrides],
  });
  const logDir = join(scratch, `${label}-${Date.now()}`);
  const running = await startEnvironment({ config, roots: [ROOT], logDir, env });
  const agent = running.servers.find((s) => s.display.server_type === 'responses_api_agents')!;
  // a server's cluster workers are its children, whose CPU /proc/<pid>/stat does not count until they exit
  const pids = overrides.some((o) => o.includes('num_workers')) ? [] : running.servers.map((s) => s.child.pid!);
  return { agentUrl: agent.display.url, pids, stop: () => running.stop() };
}

const allVariants: Variant[] = [
  { name: 'gym, telemetry off', start: () => gym(baseEnv, 'off') },
  { name: 'gym, telemetry off, agent num_workers=2', start: () => gym(baseEnv, 'off-2-workers', [`++${AGENT}.responses_api_agents.simple_agent.num_workers=2`]) },
  { name: 'gym, lens not installed', start: () => gym({ ...baseEnv, NODE_OPTIONS: `--import=${blocker}` }, 'absent') },
  { name: 'gym, default preset, console to file', start: () => gym(telemetry('default'), 'default') },
  // the scope carried through every promise by AsyncLocalStorage (promise hooks on Node 20 and 22, AsyncContextFrame on 24)
  { name: 'gym, default preset, console to file, async_context implicit', start: () => gym({ ...telemetry('default'), NEMO_GYM_OTEL_ASYNC_CONTEXT: 'implicit' }, 'default-implicit') },
  {
    name: 'gym, default preset, OTLP gRPC to a local receiver',
    start: () => withReceiver((endpoint) => gym({ ...telemetry('default'), NEMO_GYM_OTEL_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }, 'otlp')),
  },
  { name: 'gym, per_rollout preset, console to file', start: () => gym(telemetry('per_rollout'), 'per_rollout') },
  { name: 'gym + OTel auto-instrumentation (http, undici), console to file', start: () => gym({ ...baseEnv, GYM_SERVER_NODE_FLAGS: `--import=${AUTO}` }, 'auto') },
  { name: 'hand-written node:http + undici chain', start: () => startBaselineChain() },
];
const variants = allVariants.filter((v) => VARIANT_FILTER.length === 0 || VARIANT_FILTER.some((f) => v.name.toLowerCase().includes(f)));
if (variants.length === 0) throw new Error(`BENCH_VARIANTS=${process.env.BENCH_VARIANTS} matches none of: ${allVariants.map((v) => v.name).join('; ')}`);

/** An environment exporting to an OTLP receiver of @gym/trace in this process, which writes JSON lines as a collector would. */
async function withReceiver(start: (endpoint: string) => Promise<Started>): Promise<Started> {
  const receiver = await startOtlpReceiver({ outDir: join(scratch, `otlp-${Date.now()}`), grpcPort: 0, httpPort: null });
  const running = await start(`http://127.0.0.1:${receiver.grpcPort}`);
  return { agentUrl: running.agentUrl, pids: running.pids, stop: () => running.stop().finally(() => receiver.close()) };
}

const results = new Map<string, number[]>(variants.map((v) => [v.name, []]));
// server CPU per rollout (from /proc) beside the rate: on a machine others keep busy, the rate follows
// the share of the cores the servers got, CPU per rollout much less
const cpuPerRollout = new Map<string, number[]>(variants.map((v) => [v.name, []]));
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of variants) {
      const running = await variant.start();
      try {
        const cpu = () => running.pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
        const loading = runLoad(`${running.agentUrl}/run`, ROW, { concurrency: CONCURRENCY, durationMs: SECONDS * 1000, warmupMs: 1000 });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const before = cpu();
        const load = await loading;
        if (load.errors > 0) throw new Error(`${variant.name}: ${load.errors} errors`);
        results.get(variant.name)!.push(load.perSecond);
        if (running.pids.length > 0) cpuPerRollout.get(variant.name)!.push(((cpu() - before) / load.completed) * 1e6);
        process.stderr.write(`round ${round}/${ROUNDS} ${variant.name}: ${load.perSecond.toFixed(0)} rollouts/s (${load.completed} in ${load.seconds.toFixed(1)} s)\n`);
      } finally {
        await running.stop();
      }
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const m = Object.fromEntries([...results].map(([k, v]) => [k, median(v)]));
const c = Object.fromEntries([...cpuPerRollout].filter(([, v]) => v.length > 0).map(([k, v]) => [k, median(v)]));
console.log(`\nconcurrency ${CONCURRENCY}, ${SECONDS} s per run, median of ${ROUNDS} rounds, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at the end\n`);
console.log('| variant | rollouts/s (median) | runs | server CPU µs per rollout (median) | runs |');
console.log('| --- | --- | --- | --- | --- |');
for (const [name, xs] of results) {
  const cpu = cpuPerRollout.get(name)!;
  console.log(`| ${name} | ${m[name]!.toFixed(0)} | ${xs.map((x) => x.toFixed(0)).join(', ')} | ${c[name]?.toFixed(0) ?? '–'} | ${cpu.map((x) => x.toFixed(0)).join(', ')} |`);
}
console.log('\n| ratio | by rollouts/s | by server CPU per rollout | budget |');
console.log('| --- | --- | --- | --- |');
const ratio = (label: string, a: string, b: string, budget: string) => {
  if (m[a] === undefined || m[b] === undefined) return;
  const byCpu = c[a] !== undefined && c[b] !== undefined ? (c[b] / c[a]).toFixed(3) : '–';
  console.log(`| ${label} | ${(m[a] / m[b]).toFixed(3)} | ${byCpu} | ${budget} |`);
};
ratio('telemetry off ÷ lens not installed', 'gym, telemetry off', 'gym, lens not installed', '≥ 0.99');
ratio('default preset (console) ÷ telemetry off', 'gym, default preset, console to file', 'gym, telemetry off', '≥ 0.80 (by CPU, `floor`)');
ratio('default preset (OTLP gRPC) ÷ telemetry off', 'gym, default preset, OTLP gRPC to a local receiver', 'gym, telemetry off', '(see `floor`)');
ratio('default, async_context implicit ÷ explicit', 'gym, default preset, console to file, async_context implicit', 'gym, default preset, console to file', '(no budget)');
ratio('per_rollout preset ÷ telemetry off', 'gym, per_rollout preset, console to file', 'gym, telemetry off', '(no budget)');
ratio('default preset ÷ OTel auto-instrumentation', 'gym, default preset, console to file', 'gym + OTel auto-instrumentation (http, undici), console to file', '(no budget)');
ratio('gym (off) ÷ hand-written chain', 'gym, telemetry off', 'hand-written node:http + undici chain', '≥ 0.70 (by CPU, `floor`)');
ratio('agent num_workers=2 ÷ 1 worker (telemetry off)', 'gym, telemetry off, agent num_workers=2', 'gym, telemetry off', '(no budget)');
