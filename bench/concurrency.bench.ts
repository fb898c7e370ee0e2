// 16,384 rollouts in flight at once against the example environment with a simulated model that
// takes 1 s per call, telemetry on (`default` preset, console to the log files). Reports errors,
// wall time, peak RSS per process, spans written and dropped, and whether every rollout's trace is
// complete (its gym.rollout span with a /verify below it, no orphans, nothing left open).
// Run: npm run bench -- concurrency   (BENCH_ROLLOUTS, BENCH_LATENCY_MS to tune; loopback only)
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { assembleTraces, findAnomalies, findRollouts, readSpans } from '@gym/trace';
import { loadConfig, startEnvironment } from '@gym/runtime';
import { freePort } from '../packages/runtime/test/support/gym-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROLLOUTS = Number(process.env.BENCH_ROLLOUTS ?? 16_384);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 1000);
const row = JSON.parse(readFileSync(join(ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!) as Record<string, unknown>;

const logDir = mkdtempSync(join(tmpdir(), 'gym-concurrency-'));
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NEMO_') && !k.startsWith('OTEL_'))), NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'default' };
const config = await loadConfig({
  rootDir: ROOT,
  selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] },
  overrides: [`++head_server.port=${await freePort()}`, `++policy_model.responses_api_models.simulated_model.latency.fixed_ms=${LATENCY_MS}`],
});
const running = await startEnvironment({ config, roots: [ROOT], logDir, env });
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const peak = new Map<string, number>();
const sampler = setInterval(() => {
  for (const s of running.servers) {
    try {
      peak.set(s.display.process_name, Math.max(peak.get(s.display.process_name) ?? 0, rssMiB(s.display.pid!)));
    } catch {
      // the process may be gone
    }
  }
  peak.set('bench (load + orchestrator)', Math.max(peak.get('bench (load + orchestrator)') ?? 0, process.memoryUsage().rss / 2 ** 20));
}, 250);

const agent = running.servers.find((s) => s.display.server_type === 'responses_api_agents')!.display.url;
const pool = new Pool(agent, { connections: ROLLOUTS, pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
let errors = 0;
const errorKinds = new Map<string, number>();
const started = performance.now();
await Promise.all(
  Array.from({ length: ROLLOUTS }, async (_, i) => {
    try {
      const res = await pool.request({ method: 'POST', path: '/run', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...row, _ng_task_index: i, _ng_rollout_index: 0 }) });
      const text = await res.body.text();
      if (res.statusCode !== 200 || (JSON.parse(text) as { reward?: number }).reward !== 1) throw new Error(`HTTP ${res.statusCode}`);
    } catch (error) {
      errors++;
      const kind = (error as { code?: string }).code ?? (error as Error).message;
      errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
await pool.close();
await running.stop();

const { spans } = await readSpans([logDir]);
const set = assembleTraces(spans);
const rollouts = findRollouts(set);
const complete = rollouts.filter((r) => r.verify !== null).length;
const anomalies = findAnomalies(set, rollouts, { maxPerKind: 3 });
const logs = readdirSync(logDir).map((f) => readFileSync(join(logDir, f), 'utf8')).join('\n');
const dropWarnings = logs.match(/LENS_W006[^\n]*/g) ?? [];
rmSync(logDir, { recursive: true, force: true });

console.log(`| rollouts | model latency | wall | errors | spans written | rollouts with a complete trace | orphans | unclosed | drop warnings |`);
console.log(`| --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
console.log(`| ${ROLLOUTS} | ${LATENCY_MS} ms × 2 calls | ${seconds.toFixed(1)} s | ${errors}${errors ? ` (${[...errorKinds].map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''} | ${spans.length} | ${complete} / ${ROLLOUTS} | ${set.orphanCount} | ${anomalies.counts.unclosed_span} | ${dropWarnings.length} |`);
console.log('\n| process | peak RSS MiB |\n| --- | --- |');
for (const [name, mib] of peak) console.log(`| ${name} | ${mib.toFixed(0)} |`);
for (const w of dropWarnings) console.log(w);
