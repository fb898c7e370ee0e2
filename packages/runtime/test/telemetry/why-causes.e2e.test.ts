// `gym trace why` over real processes, one test per cause: each starts an environment with
// console telemetry and the per_rollout preset, injects a known delay, collects rollouts with the
// real collector at a fixed concurrency, stops the environment, and runs the analysis of
// `gym trace why --all` on its log files. At least 80% of the injected delay — as the injecting
// fixture measured it — must land in the right bucket, and the diagnosis must name the process.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleTraces, attributeRollout, buildSaturation, diagnosisSentence, findBottleneck, findRollouts, readSpans, why } from '@gym/trace';
import type { Attribution, Bottleneck, NetworkHop, SpanNode, TraceSet } from '@gym/trace';
import { createHttpClient } from '../../src/http/client.js';
import { collectRollouts } from '../../src/rollouts/collect.js';
import { fetchEnvironment } from '../../src/rollouts/environment.js';
import { startDelayingProxy } from '../support/delaying-proxy.js';
import type { DelayingProxy } from '../support/delaying-proxy.js';
import { startGymEnv } from '../support/gym-process.js';
import type { GymEnv } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const LOOP_AGENT_CONFIG = join(FIXTURES, 'responses_api_agents/loop_agent/configs/loop_agent.yaml');
const AGENT = 'nemo-gym/loop_agent';
const MODEL = 'nemo-gym/policy_model';
const BURNER = 'nemo-gym/burner';
const KNOB = 'loop_agent.responses_api_agents.loop_agent';
const DEBUG = process.env['GYM_WHY_CAUSES_DEBUG'] === '1';
/** How the diagnosis describes a busy event loop: utilization, delay p99 and GC when large. */
const BUSY = String.raw`\d+% busy( \(delay p99 [\d.]+m?s\))?(, [\d.]+% of it in GC)?`;

type Interval = [number, number];
type JsonObject = Record<string, unknown>;

/** One finished run: the collector's records and the analysis of the environment's log files. */
interface CauseRun {
  records: JsonObject[];
  set: TraceSet;
  attributions: Attribution[];
  bottleneck: Bottleneck;
  diagnosis: string;
  /** What `gym trace why --all --json` printed for the same log dir. */
  whyAll: { diagnosis: string; rollouts: number; categories: Record<string, { totalMs: number }> };
}

interface CauseOptions {
  name: string;
  overrides: string[];
  rollouts: number;
  concurrency: number;
  /** What the offered `spin` tool burns per call in the burner, ms. */
  spinMs: number;
  /** Called once the environment is up, before any rollout. */
  started?: (env: GymEnv) => void;
}

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A task offering one tool, `spin`, whose only valid argument is `ms` (the simulated model calls it). */
function task(i: number, spinMs: number): JsonObject {
  const spin = { type: 'function', name: 'spin', description: 'Burns CPU in the burner.', parameters: { type: 'object', properties: { ms: { type: 'number', enum: [spinMs] } }, required: ['ms'], additionalProperties: false }, strict: true };
  return { responses_create_params: { input: [{ role: 'user', content: `task ${i}: spin the burner` }], tools: [spin] } };
}

async function runCause(options: CauseOptions): Promise<CauseRun> {
  const env = await startGymEnv(
    [
      '--search-dir', FIXTURES, '--resources-server', 'burner', '--config', LOOP_AGENT_CONFIG, '--model-type', 'simulated_model',
      '++telemetry.enabled=true', '++telemetry.exporter=console', '++telemetry.span_groups=per_rollout',
      ...options.overrides,
    ],
    { env: telemetryEnv({ OTEL_METRIC_EXPORT_INTERVAL: '250' }) },
  );
  cleanups.push(() => env.dispose());
  const work = mkdtempSync(join(tmpdir(), `gym-why-${options.name}-`));
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));
  options.started?.(env);
  const input = join(work, 'tasks.jsonl');
  writeFileSync(input, Array.from({ length: options.rollouts }, (_, i) => JSON.stringify(task(i, options.spinMs))).join('\n') + '\n');
  const http = createHttpClient();
  const environment = await fetchEnvironment(http, env.headUrl);
  await http.close();
  const result = await collectRollouts({ environment, input, output: join(work, 'rollouts.jsonl'), concurrency: options.concurrency, disableAggregation: true });
  assert.equal(result.succeeded, options.rollouts, readFileSync(join(work, 'rollouts_failures.jsonl'), 'utf8'));
  assert.equal(await env.stop(), 0, env.output());
  const records = readFileSync(join(work, 'rollouts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as JsonObject);

  // what `gym trace why --all` does (commands/why.ts), with the pieces kept for the checks
  const { spans, metrics } = await readSpans([env.logDir]);
  const set = assembleTraces(spans);
  const rollouts = findRollouts(set);
  assert.equal(rollouts.length, options.rollouts);
  const attributions = rollouts.map(attributeRollout);
  const bottleneck = findBottleneck(attributions, buildSaturation(metrics));
  const out = { text: '', write(t: string) { out.text += t; }, error(t: string) { out.text += t; } };
  assert.equal(await why({ paths: [env.logDir], all: true, format: 'json' }, out), 0, out.text);
  const run: CauseRun = { records, set, attributions, bottleneck, diagnosis: diagnosisSentence(bottleneck), whyAll: JSON.parse(out.text) };
  if (DEBUG) report(options.name, run);
  return run;
}

function report(name: string, run: CauseRun): void {
  const totals: Record<string, number> = {};
  for (const a of run.attributions) for (const [c, ms] of Object.entries(a.categories)) totals[c] = (totals[c] ?? 0) + ms;
  const wall = run.attributions.reduce((s, a) => s + a.wallMs, 0);
  process.stderr.write(`\n[${name}] ${run.attributions.length} rollouts, wall ${wall.toFixed(0)}ms\n`);
  for (const [c, ms] of Object.entries(totals).filter(([, ms]) => ms > 0).sort((x, y) => y[1] - x[1])) process.stderr.write(`  ${c.padEnd(18)} ${ms.toFixed(1)}ms\n`);
  for (const c of run.bottleneck.causes.slice(0, 6)) process.stderr.write(`  cause ${c.kind} ${c.from} → ${c.to}: ${c.ms.toFixed(1)}ms\n`);
  for (const l of run.bottleneck.loads) process.stderr.write(`  load ${l.service}: elu ${l.elu?.toFixed(2)} p99 ${l.delayP99Ms?.toFixed(1)}ms\n`);
  process.stderr.write(`  ${run.diagnosis}\n`);
}

// ---- measuring ------------------------------------------------------------------------------

/** The span of `id` in any trace of `set`. */
function spanNode(set: TraceSet, traceId: string, spanId: string | null): SpanNode {
  const node = spanId === null ? undefined : set.traces.get(traceId)?.nodes.get(spanId);
  assert.ok(node !== undefined, `span ${spanId} of trace ${traceId}`);
  return node;
}

/** Total length of the parts of [a, b] (unix ms) covered by `intervals` (merged first). */
function covered(a: number, b: number, intervals: readonly Interval[]): number {
  let total = 0;
  let reach = a;
  for (const [s, e] of intervals) {
    const lo = Math.max(s, reach);
    const hi = Math.min(e, b);
    if (hi > lo) {
      total += hi - lo;
      reach = hi;
    }
  }
  return total;
}

const sortIntervals = (xs: Interval[]): Interval[] => xs.sort((x, y) => x[0] - y[0]);

/** The agent's CLIENT→SERVER hops to `to` on the critical path, with their spans. */
function hopsTo(run: CauseRun, to: string): Array<{ a: Attribution; hop: NetworkHop; client: SpanNode; server: SpanNode }> {
  return run.attributions.flatMap((a) =>
    a.hops.filter((h) => h.fromService === AGENT && h.toService === to && h.onCriticalPath).map((hop) => ({ a, hop, client: spanNode(run.set, a.traceId, hop.clientSpanId), server: spanNode(run.set, a.traceId, hop.serverSpanId) })),
  );
}

/** Unix ms (µs precision) of a span time. */
const unixMs = (ns: bigint) => Number(ns / 1000n) / 1000;

/** The `[start, end]` of every `spin` the burner ran, from the tool outputs in the rollouts. */
function spins(records: readonly JsonObject[]): Interval[] {
  const out: Interval[] = [];
  for (const r of records) {
    for (const item of ((r['response'] as JsonObject)['output'] as JsonObject[]) ?? []) {
      if (item['type'] !== 'function_call_output') continue;
      out.push((JSON.parse(String(item['output'])) as { burned: Interval }).burned);
    }
  }
  return sortIntervals(out);
}

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

describe('gym trace why over real processes names the injected cause', () => {
  describe('(a) a resources server burning CPU in a tool handler, 16 rollouts in flight', () => {
    let run: CauseRun;
    before(async () => {
      run = await runCause({ name: 'busy-tool', overrides: [], rollouts: 48, concurrency: 16, spinMs: 20 });
    });

    it('puts at least 80% of the time requests waited behind other spins into transit + callee queue', () => {
      const burns = spins(run.records);
      assert.equal(burns.length, 48);
      const own = sum(burns.map(([s, e]) => e - s));
      assert.ok(own >= 48 * 20, `the spins burned ${own}ms`);
      // the injected wait of a call to the burner: the part of [its CLIENT start, its SERVER start]
      // during which the burner was spinning (for other rollouts: a call's own spin is inside its span)
      const hops = hopsTo(run, BURNER);
      const injected = sum(hops.map(({ client, server }) => covered(unixMs(client.span.startNs), unixMs(server.span.startNs), burns)));
      const transit = sum(hops.map(({ hop }) => hop.critical.transit ?? 0));
      const tools = sum(run.attributions.map((a) => a.categories.tools));
      if (DEBUG) process.stderr.write(`  injected wait ${injected.toFixed(1)}ms → transit ${transit.toFixed(1)}ms; own spins ${own.toFixed(1)}ms → tools ${tools.toFixed(1)}ms\n`);
      assert.ok(injected > 2 * own, `calls waited ${injected.toFixed(1)}ms for other calls' spins`);
      assert.ok(transit >= 0.8 * injected, `transit ${transit.toFixed(1)}ms of an injected ${injected.toFixed(1)}ms`);
      // and each call's own spin is the tool's time
      assert.ok(tools >= 0.8 * own, `tools ${tools.toFixed(1)}ms of ${own.toFixed(1)}ms spun`);
    });

    it('names the burner, busy, as the bottleneck', () => {
      const cause = run.bottleneck.cause!;
      assert.deepEqual([cause.kind, cause.from, cause.to], ['transit', AGENT, BURNER]);
      assert.match(run.diagnosis, new RegExp(`^burner event loop ${BUSY}: requests from loop_agent waited in burner before its handler ran — .* in transit \\+ callee queue — add burner processes \\(num_workers\\) or make its handlers cheaper$`));
      assert.equal(run.whyAll.diagnosis, run.diagnosis);
    });
  });

  describe('(b) an agent with one upstream connection per host, 8 rollouts in flight', () => {
    let run: CauseRun;
    before(async () => {
      run = await runCause({
        name: 'one-connection',
        overrides: ['++global_aiohttp_connector_limit_per_host=1', '++policy_model.responses_api_models.simulated_model.latency.fixed_ms=20'],
        rollouts: 32,
        concurrency: 8,
        spinMs: 0,
      });
    });

    it('puts at least 80% of the time requests waited for the one connection into the caller queue', () => {
      let injected = 0;
      let queued = 0;
      for (const to of [MODEL, BURNER]) {
        const hops = hopsTo(run, to);
        // the one connection was busy with another request while its SERVER span ran
        const busy = sortIntervals(hops.map(({ server }) => [unixMs(server.span.startNs), unixMs(server.span.endNs)] as Interval));
        const wait = sum(hops.map(({ client, server }) => covered(unixMs(client.span.startNs), unixMs(server.span.startNs), busy)));
        const queue = sum(hops.map(({ hop }) => hop.critical.caller_queue ?? 0));
        if (DEBUG) process.stderr.write(`  → ${to}: injected wait ${wait.toFixed(1)}ms, caller queue ${queue.toFixed(1)}ms\n`);
        injected += wait;
        queued += queue;
      }
      assert.ok(queued >= 0.8 * injected, `caller queue ${queued.toFixed(1)}ms of an injected ${injected.toFixed(1)}ms`);
    });

    it('names the agent → model pool, not a busy event loop', () => {
      const cause = run.bottleneck.cause!;
      assert.deepEqual([cause.kind, cause.from, cause.to], ['caller_queue', AGENT, MODEL]);
      assert.match(run.diagnosis, /^caller pool full at loop_agent → policy_model: .* queued before a connection( while its event loop was [\d.]+% busy)? — raise the upstream connection limit$/);
      assert.equal(run.whyAll.diagnosis, run.diagnosis);
    });
  });

  describe('(c) a proxy delaying every agent → model request by 50 ms', () => {
    let run: CauseRun;
    let proxy: DelayingProxy;
    before(async () => {
      let model = { host: '127.0.0.1', port: 0 };
      proxy = await startDelayingProxy(() => model, 50);
      cleanups.push(() => proxy.close());
      run = await runCause({
        name: 'slow-wire',
        overrides: [`++${KNOB}.model_url=http://127.0.0.1:${proxy.port}`],
        rollouts: 16,
        concurrency: 2,
        spinMs: 0,
        started: (env) => {
          const url = new URL(env.url('policy_model'));
          model = { host: url.hostname, port: Number(url.port) };
        },
      });
    });

    it('puts at least 80% of the time the proxy held requests into transit', () => {
      const hops = hopsTo(run, MODEL);
      assert.equal(proxy.holdsMs.length, hops.length, 'one held request per model call');
      const injected = sum(proxy.holdsMs);
      const transit = sum(hops.map(({ hop }) => hop.critical.transit ?? 0));
      if (DEBUG) process.stderr.write(`  injected ${injected.toFixed(1)}ms, transit ${transit.toFixed(1)}ms\n`);
      assert.ok(transit >= 0.8 * injected, `transit ${transit.toFixed(1)}ms of an injected ${injected.toFixed(1)}ms`);
    });

    it('names the wire between agent and model, both event loops idle', () => {
      const cause = run.bottleneck.cause!;
      assert.deepEqual([cause.kind, cause.from, cause.to], ['transit', AGENT, MODEL]);
      assert.match(run.diagnosis, /^.* in transit loop_agent → policy_model with both event loops idle \(policy_model [\d.]+%, loop_agent [\d.]+%\): the wire between them is slow — check the network or proxy on that path$/);
      assert.equal(run.whyAll.diagnosis, run.diagnosis);
    });
  });

  describe('(d) an agent burning CPU in its own loop, 16 rollouts in flight', () => {
    let run: CauseRun;
    before(async () => {
      run = await runCause({ name: 'busy-agent', overrides: [`++${KNOB}.burn_ms_per_step=10`], rollouts: 48, concurrency: 16, spinMs: 0 });
    });

    it('puts at least 80% of the time rollouts waited for other rollouts\' burns into the agent\'s caller queue and return', () => {
      const burnsOf = new Map(run.records.map((r) => [r['trace_id'], r['agent_burns'] as Interval[]]));
      const all = sortIntervals([...burnsOf.values()].flat());
      assert.equal(all.length, 2 * 48, 'one burn per model call');
      let injected = 0; // other rollouts' burns while a rollout was in flight
      let burnedOwn = 0;
      let loopWait = 0; // caller queue + return of the agent's calls
      let ownCode = 0;
      for (const a of run.attributions) {
        const own = burnsOf.get(a.traceId);
        assert.ok(own !== undefined, `the record of trace ${a.traceId}`);
        injected += covered(unixMs(a.startNs), unixMs(a.endNs), all.filter((b) => !own.includes(b)));
        burnedOwn += sum(own.map(([s, e]) => e - s));
        loopWait += sum(a.hops.filter((h) => h.fromService === AGENT).map((h) => (h.critical.caller_queue ?? 0) + (h.critical.return ?? 0)));
        ownCode += a.categories.agent;
      }
      if (DEBUG) process.stderr.write(`  injected ${injected.toFixed(1)}ms → caller queue + return ${loopWait.toFixed(1)}ms; own burns ${burnedOwn.toFixed(1)}ms → agent ${ownCode.toFixed(1)}ms\n`);
      assert.ok(loopWait >= 0.8 * injected, `caller queue + return ${loopWait.toFixed(1)}ms of an injected ${injected.toFixed(1)}ms`);
      assert.ok(ownCode >= 0.8 * burnedOwn, `agent ${ownCode.toFixed(1)}ms of its own ${burnedOwn.toFixed(1)}ms of burns`);
      // the diagnosis counts exactly that wait
      assert.equal(run.bottleneck.cause!.kind, 'caller_loop');
      assert.ok(Math.abs(run.bottleneck.cause!.ms - loopWait) < 1e-6 * loopWait);
    });

    it('names the agent, busy, as the bottleneck', () => {
      const cause = run.bottleneck.cause!;
      assert.deepEqual([cause.kind, cause.from, cause.to], ['caller_loop', AGENT, null]);
      assert.match(run.diagnosis, new RegExp(`^loop_agent event loop ${BUSY}: rollouts waited for CPU in loop_agent — .* queued before requests were sent or answers were read — lower --concurrency or add loop_agent processes \\(num_workers\\)$`));
      assert.equal(run.whyAll.diagnosis, run.diagnosis);
    });
  });
});
