// The runtime metrics on a real OpenTelemetry SDK meter, collected on demand: names, units,
// attributes, and values that follow what the process did between two collections. The event-loop
// utilization is checked against the loop's own measure of the same interval, not a threshold: a
// busy machine stretches the collections around it, never the bounds.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DataPointType, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { DataPoint, Histogram, MetricData } from '@opentelemetry/sdk-metrics';
import { RUNTIME_ATTR, RUNTIME_METRIC, startRuntimeMetrics } from '../../src/telemetry/runtime-metrics.js';
import { REPO_ROOT } from '../../../runtime/test/support/gym-process.js';

class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const reader = new OnDemandReader();
const provider = new MeterProvider({ readers: [reader] });
const runtime = startRuntimeMetrics(provider.getMeter('test'));
after(async () => {
  runtime.stop();
  await provider.shutdown();
});

async function collect(): Promise<Map<string, MetricData>> {
  const { resourceMetrics, errors } = await reader.collect();
  assert.deepEqual(errors, []);
  return new Map(resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).map((m) => [m.descriptor.name, m]));
}

function gaugeValue(metrics: Map<string, MetricData>, name: string): number {
  const metric = metrics.get(name);
  assert.ok(metric, `${name} missing; got ${[...metrics.keys()].join(', ')}`);
  assert.equal(metric.dataPointType, DataPointType.GAUGE);
  assert.equal(metric.dataPoints.length, 1);
  return metric.dataPoints[0]!.value;
}

/** Keeps the event loop busy for `ms` (the stimulus; nothing is asserted about its length). */
function burn(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/**
 * Collects, runs `stimulus`, collects again: the utilization the second collection reported, and the
 * bounds the loop's own measure of the stimulus puts on it. The reported interval holds the stimulus
 * and at most the two collections around it (`edges`): it was at least the stimulus's share busy
 * with those edges idle, at most with them busy.
 */
async function utilizationAround(stimulus: () => Promise<void>): Promise<{ metrics: Map<string, MetricData>; reported: number; low: number; high: number }> {
  const before = performance.now();
  await collect();
  const from = performance.eventLoopUtilization();
  await stimulus();
  const to = performance.eventLoopUtilization();
  const metrics = await collect();
  const edges = performance.now() - before - (to.idle + to.active - from.idle - from.active);
  const { idle, active } = performance.eventLoopUtilization(to, from);
  const total = idle + active + edges;
  return { metrics, reported: gaugeValue(metrics, RUNTIME_METRIC.EVENT_LOOP_UTILIZATION), low: active / total, high: (active + edges) / total };
}

/** `reported` within [low, high], give or take float rounding. */
function assertWithin({ reported, low, high }: { reported: number; low: number; high: number }): void {
  assert.ok(reported >= low - 1e-6 && reported <= high + 1e-6, `utilization ${reported} outside [${low}, ${high}]`);
}

const DELAYS = [
  RUNTIME_METRIC.EVENT_LOOP_DELAY_MIN,
  RUNTIME_METRIC.EVENT_LOOP_DELAY_MAX,
  RUNTIME_METRIC.EVENT_LOOP_DELAY_MEAN,
  RUNTIME_METRIC.EVENT_LOOP_DELAY_STDDEV,
  RUNTIME_METRIC.EVENT_LOOP_DELAY_P50,
  RUNTIME_METRIC.EVENT_LOOP_DELAY_P90,
  RUNTIME_METRIC.EVENT_LOOP_DELAY_P99,
];

describe('runtime metrics', () => {
  it('report the utilization and delay of the event loop since the previous collection, in 1 and seconds', async () => {
    // the delay histogram's first tick only starts its clock: wait until it has a sample
    while (!(await collect()).has(RUNTIME_METRIC.EVENT_LOOP_DELAY_MAX)) await sleep(5);
    const interval = async (blockMs: number) => {
      const measured = await utilizationAround(async () => {
        await sleep(20); // a tick after the reset, so the block below is one whole sample
        burn(blockMs);
        await sleep(1); // one timers phase: the histogram takes its late sample
      });
      assertWithin(measured);
      return measured.metrics;
    };
    const long = await interval(900);
    assert.equal(long.get(RUNTIME_METRIC.EVENT_LOOP_UTILIZATION)!.descriptor.unit, '1');
    for (const name of DELAYS) {
      assert.equal(long.get(name)?.descriptor.unit, 's', name);
      assert.ok(gaugeValue(long, name) >= 0, name);
    }
    // the block is one sample at least as long as it: seconds, not ms or ns
    const max = gaugeValue(long, RUNTIME_METRIC.EVENT_LOOP_DELAY_MAX);
    assert.ok(max >= 0.9 && max < 60, `delay max ${max}`);
    assert.ok(gaugeValue(long, RUNTIME_METRIC.EVENT_LOOP_DELAY_MIN) <= gaugeValue(long, RUNTIME_METRIC.EVENT_LOOP_DELAY_P50));
    assert.ok(gaugeValue(long, RUNTIME_METRIC.EVENT_LOOP_DELAY_P50) <= max);
    // reset at each collection: the next interval no longer holds the long block
    const short = await interval(100);
    const shortMax = gaugeValue(short, RUNTIME_METRIC.EVENT_LOOP_DELAY_MAX);
    assert.ok(shortMax >= 0.1 && shortMax < max, `delay max ${shortMax} after ${max}`);
  });

  it('report a loop that waited as the loop measured it: the wait idle', async () => {
    const measured = await utilizationAround(() => sleep(100));
    assertWithin(measured);
  });

  it('record GC pauses in seconds by v8js.gc.type', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    let points: DataPoint<Histogram>[] = [];
    // the observer delivers GC entries on a later turn
    for (let i = 0; i < 100 && !points.some((p) => p.attributes[RUNTIME_ATTR.GC_TYPE] === 'major'); i++) {
      await nextTurn();
      const metric = (await collect()).get(RUNTIME_METRIC.GC_DURATION);
      if (metric?.dataPointType === DataPointType.HISTOGRAM) points = metric.dataPoints;
    }
    const major = points.find((p) => p.attributes[RUNTIME_ATTR.GC_TYPE] === 'major');
    assert.ok(major, `no major GC recorded: ${JSON.stringify(points.map((p) => p.attributes))}`);
    assert.ok(major.value.count >= 1);
    assert.ok(major.value.sum! > 0 && major.value.sum! < 60, `sum ${major.value.sum}`);
    for (const p of points) assert.ok(['major', 'minor', 'incremental', 'weakcb'].includes(String(p.attributes[RUNTIME_ATTR.GC_TYPE])));
    const metric = (await collect()).get(RUNTIME_METRIC.GC_DURATION)!;
    assert.equal(metric.descriptor.unit, 's');
  });

  it('report the V8 heap per space in bytes: used and reserved', async () => {
    const metrics = await collect();
    const used = metrics.get(RUNTIME_METRIC.HEAP_USED)!;
    const limit = metrics.get(RUNTIME_METRIC.HEAP_LIMIT)!;
    assert.equal(used.descriptor.unit, 'By');
    assert.equal(limit.descriptor.unit, 'By');
    const bySpace = (m: MetricData) => new Map(m.dataPoints.map((p) => [String(p.attributes[RUNTIME_ATTR.HEAP_SPACE_NAME]), p.value as number]));
    const usedBySpace = bySpace(used);
    const limitBySpace = bySpace(limit);
    assert.ok(usedBySpace.has('old_space') && usedBySpace.has('new_space'), [...usedBySpace.keys()].join(', '));
    assert.ok(usedBySpace.get('old_space')! > 0);
    for (const [space, bytes] of usedBySpace) assert.ok(bytes <= limitBySpace.get(space)!, space);
  });

  it('stop: GC pauses are no longer recorded', async () => {
    const gc = runInNewContext('gc') as () => void;
    const count = async () => ((await collect()).get(RUNTIME_METRIC.GC_DURATION)?.dataPoints as DataPoint<Histogram>[] | undefined)?.reduce((n, p) => n + p.value.count, 0) ?? 0;
    runtime.stop();
    runtime.stop();
    await nextTurn();
    const before = await count();
    gc();
    for (let i = 0; i < 10; i++) await nextTurn();
    assert.equal(await count(), before);
  });

  it('keep no process alive', () => {
    const script = [
      "import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';",
      "import { startRuntimeMetrics } from './packages/server/src/telemetry/runtime-metrics.ts';",
      'class R extends MetricReader { async onForceFlush() {} async onShutdown() {} }',
      "startRuntimeMetrics(new MeterProvider({ readers: [new R()] }).getMeter('t'));",
      "console.log('started');",
    ].join('\n');
    // exits by itself, without stop(): every timer and observer is unref'd
    const child = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.trim(), 'started');
  });
});
