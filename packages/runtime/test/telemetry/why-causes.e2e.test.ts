// `gym trace why` over real processes, one test per cause: each starts an environment with
// console telemetry and the per_rollout preset, injects a known delay, collects rollouts with the
// real collector at a fixed concurrency, stops the environment, and runs the analysis of
// `gym trace why --all` on its log files. At least 80% of the injected delay — as the injecting
// fixture measured it — must land in the right bucket, and the diagnosis must name the process.
// GYM_WHY_CAUSES_DEBUG=1 prints each run's split, causes, loads and measured shares on stderr.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleTraces, attributeRollout, buildSaturation, diagnosisSentence, findBottleneck, findRollouts, hopTimeline, readSpans, why } from '@gym/trace';
import type { Attribution, Bottleneck, NetworkHop, ServiceLoad, TraceSet } from '@gym/trace';
import { createHttpClient } from '../../../server/src/http/client.js';
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
  whyAll: { diagnosis: string; rollouts: number };
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
  const spin = {
    type: 'function',
    name: 'spin',
    description: 'Burns CPU in the burner.',
    parameters: { type: 'object', properties: { ms: { type: 'number', enum: [spinMs] } }, required: ['ms'], additionalProperties: false },
    strict: true,
  };
  return { responses_create_params: { input: [{ role: 'user', content: `task ${i}: spin the burner` }], tools: [spin] } };
}

async function runCause(options: CauseOptions): Promise<CauseRun> {
  const env = await startGymEnv(
    [
      '--search-dir',
      FIXTURES,
      '--resources-server',
      'burner',
      '--config',
      LOOP_AGENT_CONFIG,
      '--model-type',
      'simulated_model',
      '++telemetry.enabled=true',
      '++telemetry.exporter=console',
      '++telemetry.span_groups=per_rollout',
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
  assert.equal(await env.stop(), 143, env.output());
  const records = readFileSync(join(work, 'rollouts.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as JsonObject);

  // what `gym trace why --all` does (commands/why.ts), with the pieces kept for the checks
  const { spans, metrics } = await readSpans([env.logDir]);
  const set = assembleTraces(spans);
  const rollouts = findRollouts(set);
  assert.equal(rollouts.length, options.rollouts);
  const attributions = rollouts.map(attributeRollout);
  const bottleneck = findBottleneck(attributions, buildSaturation(metrics));
  const out = {
    text: '',
    write(t: string) {
      out.text += t;
    },
    error(t: string) {
      out.text += t;
    },
  };
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
  for (const [c, ms] of Object.entries(totals)
    .filter(([, ms]) => ms > 0)
    .sort((x, y) => y[1] - x[1]))
    process.stderr.write(`  ${c.padEnd(18)} ${ms.toFixed(1)}ms\n`);
  for (const c of run.bottleneck.causes.slice(0, 6)) process.stderr.write(`  cause ${c.kind} ${c.from} → ${c.to}: ${c.ms.toFixed(1)}ms\n`);
  for (const l of run.bottleneck.loads) process.stderr.write(`  load ${l.service}: elu ${l.elu?.toFixed(2)} p99 ${l.delayP99Ms?.toFixed(1)}ms, slow ${l.slowDelayShare?.toFixed(2)}\n`);
  process.stderr.write(`  ${run.diagnosis}\n`);
}

// ---- measuring ------------------------------------------------------------------------------
// Every check compares time intervals on the span clock (`performance.timeOrigin +
// performance.now()`, what every process stamps its spans with): the injected delay as the fixture
// recorded it, against the stretch of a hop that `why` put into one phase.

/** Unix ms (µs precision) of a span time. */
const unixMs = (ns: bigint) => Number(ns / 1000n) / 1000;
const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
const length = (xs: readonly Interval[]) => sum(xs.map(([s, e]) => e - s));
const sortIntervals = (xs: readonly Interval[]): Interval[] => [...xs].sort((x, y) => x[0] - y[0]);

/** Total length of the parts of [a, b] covered by `sorted` (sorted by start; overlaps counted once). */
function covered([a, b]: Interval, sorted: readonly Interval[]): number {
  let total = 0;
  let reach = a;
  for (const [s, e] of sorted) {
    if (s >= b) break;
    const lo = Math.max(s, reach);
    const hi = Math.min(e, b);
    if (hi > lo) {
      total += hi - lo;
      reach = hi;
    }
  }
  return total;
}

/** One of the agent's CLIENT→SERVER hops on a rollout's critical path, cut in its phases. */
interface Hop {
  a: Attribution;
  hop: NetworkHop;
  /** From the CLIENT span's start to the SERVER span's start: all the waiting before the callee. */
  before: Interval;
  /** The SERVER span. */
  server: Interval;
  /** The stretches `why` put into these phases (see analyze/hop-timeline.ts). */
  callerQueue: Interval;
  connect: Interval;
  transit: Interval;
  return: Interval;
}

/** The agent's hops to `to` (every callee when undefined) on the critical path. */
function agentHops(run: CauseRun, to?: string): Hop[] {
  return run.attributions.flatMap((a) =>
    a.hops
      .filter((h) => h.fromService === AGENT && (to === undefined || h.toService === to) && h.onCriticalPath && h.serverSpanId !== null)
      .map((hop) => {
        const client = run.set.traces.get(a.traceId)!.nodes.get(hop.clientSpanId)!;
        const tl = hopTimeline(client);
        assert.ok(tl.server !== null && tl.phases !== null, `phases and a SERVER span for ${hop.name}`);
        return {
          a,
          hop,
          before: [unixMs(client.span.startNs), unixMs(tl.server.span.startNs)] as Interval,
          server: [unixMs(tl.server.span.startNs), unixMs(tl.server.span.endNs)] as Interval,
          callerQueue: [unixMs(tl.attemptNs), unixMs(tl.queuedEndNs)] as Interval,
          connect: [unixMs(tl.queuedEndNs), unixMs(tl.connectedNs)] as Interval,
          transit: [unixMs(tl.connectedNs), unixMs(tl.serverStartNs)] as Interval,
          return: [unixMs(tl.serverEndNs), unixMs(client.span.endNs)] as Interval,
        };
      }),
  );
}

/** The `[start, end]` of every `spin` the burner ran, from the tool outputs in the rollouts. */
function spins(records: readonly JsonObject[]): Interval[] {
  const out: Interval[] = [];
  for (const r of records) {
    for (const item of ((r['response'] as JsonObject)['output'] as JsonObject[]) ?? []) {
      if (item['type'] === 'function_call_output') out.push((JSON.parse(String(item['output'])) as { burned: Interval }).burned);
    }
  }
  return sortIntervals(out);
}

/** Logs the share of an injected delay in a bucket under GYM_WHY_CAUSES_DEBUG=1. */
/** What `why` calls an idle event loop: under half busy, and delays of 100 ms or more in under a quarter of the window. */
function idleLoad(l: ServiceLoad): boolean {
  return l.elu !== null && l.elu < 0.5 && (l.slowDelayShare ?? 0) < 0.25;
}

function share(label: string, inBucket: number, injected: number): void {
  if (DEBUG) process.stderr.write(`  ${label}: ${inBucket.toFixed(1)}ms of ${injected.toFixed(1)}ms injected (${((100 * inBucket) / injected).toFixed(1)}%)\n`);
}

describe('gym trace why over real processes names the injected cause', () => {
  describe('(a) a resources server burning CPU in a tool handler, 16 rollouts in flight', () => {
    let run: CauseRun;
    before(async () => {
      run = await runCause({ name: 'busy-tool', overrides: [], rollouts: 48, concurrency: 16, spinMs: 20 });
    });

    it("puts at least 80% of the time calls waited behind other calls' spins into transit + callee queue", () => {
      const burns = spins(run.records);
      assert.equal(burns.length, 48, 'one spin per rollout');
      assert.ok(burns.every(([s, e]) => e - s >= 20));
      // the injected wait: the burner spinning (for other rollouts) while a call to it had not started
      const hops = agentHops(run, BURNER);
      const injected = sum(hops.map((h) => covered(h.before, burns)));
      const inTransit = sum(hops.map((h) => covered(h.transit, burns)));
      share('burner spinning → transit + callee queue', inTransit, injected);
      assert.ok(injected > 2 * length(burns), `calls waited ${injected.toFixed(1)}ms for other calls' spins`);
      assert.ok(inTransit >= 0.8 * injected, `transit holds ${inTransit.toFixed(1)}ms of ${injected.toFixed(1)}ms injected`);
      // and a call's own spin is the tool's time
      const tools = sum(run.attributions.map((a) => a.categories.tools));
      share('own spins → tools', Math.min(tools, length(burns)), length(burns));
      assert.ok(tools >= 0.8 * length(burns), `tools ${tools.toFixed(1)}ms of ${length(burns).toFixed(1)}ms spun`);
    });

    it('names the burner, busy, as the bottleneck', () => {
      const cause = run.bottleneck.cause!;
      assert.deepEqual([cause.kind, cause.from, cause.to], ['transit', AGENT, BURNER]);
      assert.match(
        run.diagnosis,
        new RegExp(
          `^burner event loop ${BUSY}: requests from loop_agent waited in burner before its handler ran — .* in transit \\+ callee queue — add burner processes \\(num_workers\\) or make its handlers cheaper$`,
        ),
      );
      assert.deepEqual([run.whyAll.rollouts, run.whyAll.diagnosis], [run.attributions.length, run.diagnosis]);
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

    it('puts at least 80% of the time calls waited for the one connection into the caller queue', () => {
      let injected = 0;
      let inQueue = 0;
      for (const to of [MODEL, BURNER]) {
        const hops = agentHops(run, to);
        // the one connection to `to` carried another call while that call's SERVER span ran
        const busy = sortIntervals(hops.map((h) => h.server));
        injected += sum(hops.map((h) => covered(h.before, busy)));
        inQueue += sum(hops.map((h) => covered(h.callerQueue, busy)));
      }
      share('connection busy → caller queue', inQueue, injected);
      const model = sum(run.attributions.map((a) => a.categories.model));
      assert.ok(injected > 2 * model, `calls waited ${injected.toFixed(1)}ms for the connection, the model took ${model.toFixed(1)}ms`);
      assert.ok(inQueue >= 0.8 * injected, `caller queue holds ${inQueue.toFixed(1)}ms of ${injected.toFixed(1)}ms injected`);
    });

    it('names the agent → model pool, not a busy event loop', () => {
      const cause = run.bottleneck.cause!;
      assert.deepEqual([cause.kind, cause.from, cause.to], ['caller_queue', AGENT, MODEL]);
      assert.match(run.diagnosis, /^caller pool full at loop_agent → policy_model: .* queued before a connection( while its event loop was [\d.]+% busy)? — raise the upstream connection limit$/);
      assert.deepEqual([run.whyAll.rollouts, run.whyAll.diagnosis], [run.attributions.length, run.diagnosis]);
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
      const hops = agentHops(run, MODEL);
      assert.equal(proxy.holds.size, hops.length, 'one held request per model call');
      let injected = 0;
      let inTransit = 0;
      for (const h of hops) {
        const held = proxy.holds.get(h.hop.clientSpanId);
        assert.ok(held !== undefined && held[1] - held[0] >= 49, `request of span ${h.hop.clientSpanId} held ${held?.join('–')}`);
        injected += held[1] - held[0];
        inTransit += covered(h.transit, [held as Interval]);
      }
      share('proxy holding → transit', inTransit, injected);
      assert.ok(inTransit >= 0.8 * injected, `transit holds ${inTransit.toFixed(1)}ms of ${injected.toFixed(1)}ms injected`);
    });

    it('names the wire between agent and model, and calls it slow when both event loops were idle', () => {
      const cause = run.bottleneck.cause!;
      assert.deepEqual([cause.kind, cause.from, cause.to], ['transit', AGENT, MODEL]);
      // On a quiet machine both loops idle through the run. A loaded machine can stall a loop at
      // start-up for long enough that `why` may not call it idle: then it must not blame the wire
      // alone, and the loads it read must show why.
      const notIdle = run.bottleneck.loads.filter((l) => [AGENT, MODEL].includes(l.service) && !idleLoad(l));
      if (notIdle.length === 0)
        assert.match(
          run.diagnosis,
          /^.* in transit loop_agent → policy_model with both event loops idle \(policy_model [\d.]+%, loop_agent [\d.]+%\): the wire between them is slow — check the network or proxy on that path$/,
        );
      else assert.match(run.diagnosis, /^.* between loop_agent sending and policy_model handling requests: the wire or policy_model's event loop$/, JSON.stringify(notIdle));
      assert.deepEqual([run.whyAll.rollouts, run.whyAll.diagnosis], [run.attributions.length, run.diagnosis]);
    });
  });

  describe('(d) an agent burning CPU in its own loop, 16 rollouts in flight', () => {
    let run: CauseRun;
    before(async () => {
      run = await runCause({ name: 'busy-agent', overrides: [`++${KNOB}.burn_ms_per_step=10`], rollouts: 48, concurrency: 16, spinMs: 0 });
    });

    it("puts at least 80% of the time rollouts waited for other rollouts' burns into the agent's caller queue, connect and return", () => {
      const burnsOf = new Map(run.records.map((r) => [r['trace_id'], r['agent_burns'] as Interval[]]));
      assert.equal([...burnsOf.values()].flat().length, 2 * 48, 'one burn per model call');
      const hopsOf = new Map<Attribution, Hop[]>();
      for (const h of agentHops(run)) hopsOf.set(h.a, [...(hopsOf.get(h.a) ?? []), h]);
      let injected = 0;
      let inLoop = 0;
      let own = 0;
      for (const a of run.attributions) {
        const mine = burnsOf.get(a.traceId);
        assert.ok(mine !== undefined, `the record of trace ${a.traceId}`);
        // the injected wait: the agent burning for other rollouts while this one was in flight
        const others = sortIntervals([...burnsOf.values()].filter((b) => b !== mine).flat());
        injected += covered([unixMs(a.startNs), unixMs(a.endNs)], others);
        // a busy caller holds back its sends (queue, and the connect callback of a new connection)
        // and its reading of the answers
        for (const h of hopsOf.get(a) ?? []) inLoop += covered(h.callerQueue, others) + covered(h.connect, others) + covered(h.return, others);
        own += length(mine);
      }
      share('agent burning for others → caller queue + connect + return', inLoop, injected);
      assert.ok(inLoop >= 0.8 * injected, `caller queue + connect + return hold ${inLoop.toFixed(1)}ms of ${injected.toFixed(1)}ms injected`);
      // a rollout's own burns are the agent's own code
      const ownCode = sum(run.attributions.map((x) => x.categories.agent));
      share('own burns → agent', Math.min(ownCode, own), own);
      assert.ok(ownCode >= 0.8 * own, `agent ${ownCode.toFixed(1)}ms of its own ${own.toFixed(1)}ms of burns`);
    });

    it('names the agent, busy, as the bottleneck: its caller queue, connect and return over all its calls', () => {
      const cause = run.bottleneck.cause!;
      assert.deepEqual([cause.kind, cause.from, cause.to], ['caller_loop', AGENT, null]);
      const wait = sum(
        run.attributions.flatMap((a) => a.hops.filter((h) => h.fromService === AGENT).map((h) => (h.critical.caller_queue ?? 0) + (h.critical.connect ?? 0) + (h.critical.return ?? 0))),
      );
      assert.ok(Math.abs(cause.ms - wait) <= 1e-6 * wait, `${cause.ms} vs ${wait}`);
      assert.match(
        run.diagnosis,
        new RegExp(
          `^loop_agent event loop ${BUSY}: rollouts waited for CPU in loop_agent — .* queued before requests were sent or answers were read — lower --concurrency or add loop_agent processes \\(num_workers\\)$`,
        ),
      );
      assert.deepEqual([run.whyAll.rollouts, run.whyAll.diagnosis], [run.attributions.length, run.diagnosis]);
    });
  });
});
