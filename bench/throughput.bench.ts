// Rollouts per second at saturation through agent → model/resources (simulated model, zero
// latency), for gym with telemetry off, without lens installed, with the `default` and
// `per_rollout` presets exporting to console (log files), and for a hand-written node:http +
// undici chain making the same hops. Variants alternate in rounds so drift hits all alike.
// Run: npm run bench -- throughput   (BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONCURRENCY to tune)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, startEnvironment } from '@gym/runtime';
import { freePort } from '../packages/runtime/test/support/gym-process.js';
import { startBaselineChain } from './support/baseline-chain.js';
import { runLoad } from './support/load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const ROW = readFileSync(join(ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;

const scratch = mkdtempSync(join(tmpdir(), 'gym-bench-'));
const blocker = join(scratch, 'block-lens.mjs');
writeFileSync(blocker, `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent('export async function resolve(s, c, n) { if (s === "@gym/lens" || s.startsWith("@opentelemetry/")) { const e = new Error("blocked " + s); e.code = "ERR_MODULE_NOT_FOUND"; throw e; } return n(s, c); }'));\n`);

const AUTO = fileURLToPath(new URL('./support/auto-instrumentation.ts', import.meta.url));
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NEMO_') && !k.startsWith('OTEL_')));
const telemetry = (groups: string) => ({ ...baseEnv, NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: groups });

interface Variant {
  name: string;
  start(): Promise<{ agentUrl: string; stop(): Promise<void> }>;
}

async function gym(env: NodeJS.ProcessEnv, label: string): Promise<{ agentUrl: string; stop(): Promise<void> }> {
  const config = await loadConfig({ rootDir: ROOT, selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] }, overrides: [`++head_server.port=${await freePort()}`] });
  const logDir = join(scratch, `${label}-${Date.now()}`);
  const running = await startEnvironment({ config, roots: [ROOT], logDir, env });
  const agent = running.servers.find((s) => s.display.server_type === 'responses_api_agents')!;
  return { agentUrl: agent.display.url, stop: () => running.stop() };
}

const variants: Variant[] = [
  { name: 'gym, telemetry off', start: () => gym(baseEnv, 'off') },
  { name: 'gym, lens not installed', start: () => gym({ ...baseEnv, NODE_OPTIONS: `--import=${blocker}` }, 'absent') },
  { name: 'gym, default preset, console to file', start: () => gym(telemetry('default'), 'default') },
  { name: 'gym, per_rollout preset, console to file', start: () => gym(telemetry('per_rollout'), 'per_rollout') },
  { name: 'gym + OTel auto-instrumentation (http, undici), console to file', start: () => gym({ ...baseEnv, GYM_SERVER_NODE_FLAGS: `--import=${AUTO}` }, 'auto') },
  { name: 'hand-written node:http + undici chain', start: () => startBaselineChain() },
];

const results = new Map<string, number[]>(variants.map((v) => [v.name, []]));
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of variants) {
      const running = await variant.start();
      try {
        const load = await runLoad(`${running.agentUrl}/run`, ROW, { concurrency: CONCURRENCY, durationMs: SECONDS * 1000 });
        if (load.errors > 0) throw new Error(`${variant.name}: ${load.errors} errors`);
        results.get(variant.name)!.push(load.perSecond);
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
console.log(`\nconcurrency ${CONCURRENCY}, ${SECONDS} s per run, median of ${ROUNDS} rounds, node ${process.version}\n`);
console.log('| variant | rollouts/s (median) | runs |');
console.log('| --- | --- | --- |');
for (const [name, xs] of results) console.log(`| ${name} | ${m[name]!.toFixed(0)} | ${xs.map((x) => x.toFixed(0)).join(', ')} |`);
const ratio = (a: string, b: string) => m[a]! / m[b]!;
console.log('\n| ratio | value | budget (DESIGN.md §6) |');
console.log('| --- | --- | --- |');
console.log(`| telemetry off ÷ lens not installed | ${ratio('gym, telemetry off', 'gym, lens not installed').toFixed(3)} | ≥ 0.99 |`);
console.log(`| default preset ÷ telemetry off | ${ratio('gym, default preset, console to file', 'gym, telemetry off').toFixed(3)} | ≥ 0.85 |`);
console.log(`| per_rollout preset ÷ telemetry off | ${ratio('gym, per_rollout preset, console to file', 'gym, telemetry off').toFixed(3)} | (no budget) |`);
console.log(`| default preset ÷ OTel auto-instrumentation | ${ratio('gym, default preset, console to file', 'gym + OTel auto-instrumentation (http, undici), console to file').toFixed(3)} | ≥ 1.5 |`);
console.log(`| gym (off) ÷ hand-written chain | ${ratio('gym, telemetry off', 'hand-written node:http + undici chain').toFixed(3)} | ≥ 0.5 |`);
