// One test per cause of a saturated run: a known delay is injected into otherwise-real span shapes
// and metric lines, and `why` must put at least 80% of it into the right bucket and name the right
// process in its diagnosis.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { why } from '../src/commands/why.js';
import { capture } from './support/capture.js';
import { AGENT, MODEL, RESOURCES } from './support/fixtures.js';
import { COLLECTOR } from './support/phased-rollouts.js';
import type { RunShape } from './support/saturated-run.js';
import { writeSaturatedRun } from './support/saturated-run.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

const IDLE = { elu: 0.08, delayP99Ms: 11 };

interface WhyJson {
  categories: Record<string, number>;
  wallMs: number;
  hops: Array<{ toService: string; fromService: string; critical: Record<string, number> }>;
  diagnosis: string;
  bottleneck: { cause: { kind: string; from: string | null; to: string | null } };
}

async function whyJson(run: RunShape, id?: string): Promise<WhyJson> {
  const d = writeSaturatedRun(run);
  cleanups.push(d.cleanup);
  const c = capture();
  assert.equal(await why(id === undefined ? { paths: [d.dir], all: true, format: 'json' } : { paths: [d.dir], id, format: 'json' }, c), 0, c.err);
  return JSON.parse(c.out) as WhyJson;
}

function sums(doc: WhyJson): void {
  const total = Object.values(doc.categories).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(total - doc.wallMs) < 1e-6, `categories sum to the wall time (${total} vs ${doc.wallMs})`);
}

describe('why under load names the bottleneck', () => {
  it('(a) a resources server burning CPU: transit + callee queue on that server', async () => {
    const injected = 200;
    const run: RunShape = {
      rollouts: 8,
      spacingMs: 25,
      shape: () => ({ tool: { serverMs: 2, transitMs: injected } }),
      loads: { [AGENT]: { elu: 0.2, delayP99Ms: 12 }, [MODEL]: IDLE, [RESOURCES]: { elu: 0.97, delayP99Ms: 240 }, [COLLECTOR]: IDLE },
    };
    for (const id of ['0', '5']) {
      const doc = await whyJson(run, id);
      sums(doc);
      assert.ok(doc.categories['transit']! >= 0.8 * injected, `transit ${doc.categories['transit']}`);
      const toTool = doc.hops.find((h) => h.toService === RESOURCES && (h.critical['transit'] ?? 0) > 0)!;
      assert.ok(toTool.critical['transit']! >= 0.8 * injected);
      assert.deepEqual([doc.bottleneck.cause.kind, doc.bottleneck.cause.to], ['transit', RESOURCES]);
      assert.match(
        doc.diagnosis,
        /^weather event loop 97% busy \(delay p99 240ms\): requests from simple_agent waited in weather before its handler ran — 20\dms of 2\d\dms \(\d+\.\d%\) in transit \+ callee queue — add weather processes \(num_workers\)/,
      );
    }
    const all = await whyJson(run);
    assert.match(all.diagnosis, /^weather event loop 97% busy/);
  });

  it('(b) an agent whose upstream pool holds one connection with 8 rollouts in flight: caller queue', async () => {
    // with one connection, the i-th rollout waits for the i model calls ahead of it
    const modelMs = 20;
    const run: RunShape = {
      rollouts: 8,
      spacingMs: 1,
      shape: (i) => ({ model: { serverMs: modelMs, queuedMs: i * modelMs } }),
      loads: { [AGENT]: { elu: 0.12, delayP99Ms: 11 }, [MODEL]: { elu: 0.3, delayP99Ms: 12 }, [RESOURCES]: IDLE, [COLLECTOR]: IDLE },
    };
    for (const i of [3, 7]) {
      const doc = await whyJson(run, String(i));
      sums(doc);
      const injected = i * modelMs;
      assert.ok(doc.categories['caller_queue']! >= 0.8 * injected, `caller queue ${doc.categories['caller_queue']} of ${injected}`);
      const toModel = doc.hops.find((h) => h.toService === MODEL)!;
      assert.equal(toModel.fromService, AGENT);
      assert.ok(toModel.critical['caller_queue']! >= 0.8 * injected);
      assert.deepEqual([doc.bottleneck.cause.kind, doc.bottleneck.cause.from, doc.bottleneck.cause.to], ['caller_queue', AGENT, MODEL]);
      assert.match(
        doc.diagnosis,
        /^caller pool full at simple_agent → policy_model: \d+ms of \d+ms \(\d+\.\d%\) queued before a connection while its event loop was 12\.0% busy — raise the upstream connection limit$/,
      );
    }
  });

  it('(c) a slow wire between agent and model, both event loops idle: transit', async () => {
    const injected = 50;
    const run: RunShape = {
      rollouts: 6,
      spacingMs: 10,
      shape: () => ({ model: { serverMs: 5, transitMs: injected } }),
      loads: { [AGENT]: { elu: 0.1, delayP99Ms: 11 }, [MODEL]: { elu: 0.06, delayP99Ms: 10 }, [RESOURCES]: IDLE, [COLLECTOR]: IDLE },
    };
    const doc = await whyJson(run, '2');
    sums(doc);
    assert.ok(doc.categories['transit']! >= 0.8 * injected);
    const toModel = doc.hops.find((h) => h.toService === MODEL)!;
    assert.ok(toModel.critical['transit']! >= 0.8 * injected);
    assert.deepEqual([doc.bottleneck.cause.kind, doc.bottleneck.cause.from, doc.bottleneck.cause.to], ['transit', AGENT, MODEL]);
    assert.match(
      doc.diagnosis,
      /^5\dms of \d+ms \(\d+\.\d%\) in transit simple_agent → policy_model with both event loops idle \(policy_model 6\.0%, simple_agent 10\.0%\): the wire between them is slow/,
    );
  });

  describe('(c) with slow event-loop delays on the callee', () => {
    const injected = 50;
    // metrics every 10 ms over a run of about 120 ms: a dozen samples
    const slowWire = (modelDelayAt: (ms: number) => number): RunShape => ({
      rollouts: 6,
      spacingMs: 10,
      exportEveryMs: 10,
      shape: () => ({ model: { serverMs: 5, transitMs: injected } }),
      loads: { [AGENT]: { elu: 0.1, delayP99Ms: 11 }, [MODEL]: { elu: 0.3, delayP99Ms: 10, delayP99At: modelDelayAt }, [RESOURCES]: IDLE, [COLLECTOR]: IDLE },
    });
    const transitToModel = (doc: WhyJson) => assert.deepEqual([doc.bottleneck.cause.kind, doc.bottleneck.cause.from, doc.bottleneck.cause.to], ['transit', AGENT, MODEL]);

    it('one stalled sample (a cold handler, a host that left the process waiting) does not make the callee busy: the wire', async () => {
      const run = slowWire((ms) => (ms > 30 && ms <= 40 ? 134 : 10));
      const doc = await whyJson(run);
      transitToModel(doc);
      assert.match(doc.diagnosis, /in transit simple_agent → policy_model with both event loops idle \(policy_model 30\.0%, simple_agent 10\.0%\): the wire between them is slow/);
      // the load table shows the stall and how little of the run it covered
      const d = writeSaturatedRun(run);
      cleanups.push(d.cleanup);
      const c = capture();
      assert.equal(await why({ paths: [d.dir], all: true, width: 80 }, c), 0, c.err);
      const row = c.out.split('\n').find((l) => l.startsWith('policy_model '));
      assert.match(row ?? '', /^policy_model +1 +30\.0% +134ms +(\d\.\d|1\d\.\d)% +1\.0%$/, c.out);
    });

    it('delays of 100 ms or more over most of the run make the callee busy, however low its utilization', async () => {
      const doc = await whyJson(slowWire((ms) => (ms > 10 ? 150 : 10)));
      transitToModel(doc);
      assert.match(doc.diagnosis, /^policy_model event loop 30% busy \(delay p99 150ms\): requests from simple_agent waited in policy_model before its handler ran/);
    });
  });

  it('(d) an agent burning CPU in its own loop: caller queue with a busy caller', async () => {
    const perCall = 30; // every send waits for the loop
    const run: RunShape = {
      rollouts: 8,
      spacingMs: 20,
      shape: () => ({ model: { serverMs: 10, queuedMs: perCall }, tool: { serverMs: 2, queuedMs: perCall }, verify: { serverMs: 3, queuedMs: perCall } }),
      loads: { [AGENT]: { elu: 0.98, delayP99Ms: 41 }, [MODEL]: IDLE, [RESOURCES]: IDLE, [COLLECTOR]: IDLE },
    };
    const doc = await whyJson(run, '4');
    sums(doc);
    assert.ok(doc.categories['caller_queue']! >= 0.8 * 3 * perCall);
    // a busy caller delays all its calls, sending and reading: its queue and return are counted over every one of them
    assert.deepEqual([doc.bottleneck.cause.kind, doc.bottleneck.cause.from, doc.bottleneck.cause.to], ['caller_loop', AGENT, null]);
    assert.match(
      doc.diagnosis,
      /^simple_agent event loop 98% busy \(delay p99 41ms\): rollouts waited for CPU in simple_agent — (9\d|1\d\d)\.?\d*ms of \d+ms \(\d+\.\d%\) queued before requests were sent or answers were read — lower --concurrency or add simple_agent processes \(num_workers\)$/,
    );
    const all = await whyJson(run);
    assert.match(all.diagnosis, /^simple_agent event loop 98% busy \(delay p99 41ms\): rollouts waited for CPU in simple_agent — \d+ms of \d+ms per rollout/);
  });

  it('(d) a busy agent whose waits split between sending and reading: one cause, the agent loop', async () => {
    // as measured over real processes: the pool writes on a later turn of the busy loop, a new
    // connection's callback waits for it, and answers do too; each callee's return alone would be
    // the largest single piece
    const hop = (serverMs: number) => ({ serverMs, queuedMs: 12, connectMs: 3, returnMs: 20 });
    const busyAgent: RunShape = {
      rollouts: 8,
      spacingMs: 20,
      shape: () => ({ model: hop(10), tool: hop(2), verify: hop(3) }),
      loads: { [AGENT]: { elu: 0.98, delayP99Ms: 41 }, [MODEL]: IDLE, [RESOURCES]: IDLE, [COLLECTOR]: IDLE },
    };
    const doc = await whyJson(busyAgent, '4');
    sums(doc);
    assert.deepEqual([doc.bottleneck.cause.kind, doc.bottleneck.cause.from, doc.bottleneck.cause.to], ['caller_loop', AGENT, null]);
    assert.match(
      doc.diagnosis,
      /^simple_agent event loop 98% busy \(delay p99 41ms\): rollouts waited for CPU in simple_agent — 10\d\.?\d*ms of \d+ms \(\d+\.\d%\) queued before requests were sent or answers were read/,
    );
    // with the agent idle, the same returns are the wire's or the callee's: no agent loop cause
    const idleAgent = await whyJson({ ...busyAgent, loads: { ...busyAgent.loads, [AGENT]: IDLE } }, '4');
    assert.equal(idleAgent.bottleneck.cause.kind, 'return');
  });

  it('says that no saturation metrics were recorded when there are none', async () => {
    const doc = await whyJson({ rollouts: 2, spacingMs: 5, shape: () => ({ model: { serverMs: 5, queuedMs: 40 } }) }, '1');
    assert.equal(doc.bottleneck.cause.kind, 'caller_queue');
    assert.match(doc.diagnosis, /^caller pool full at simple_agent → policy_model: .* \(no saturation metrics recorded: a busy simple_agent event loop would look the same\)/);
  });
});
