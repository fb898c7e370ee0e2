// The per-rollout metrics of the endpoint wrappers with real telemetry (`default`, console lines into
// a stream in this process): `gym.rollout.duration_ms`, `gym.rollout.completed_total`,
// `gym.verify.duration_ms` and `gym.verify.success_rate` keep their names, units, descriptions,
// buckets and values, whichever instruments record them; with the `verify` group switched off its two
// record nothing more.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { setEnabledSpanGroups } from '@gym/lens';
import { addJsonRoute, createServerApp } from '../../src/server/index.js';
import { initTelemetry } from '../../src/telemetry/init.js';
import { processTelemetry } from '../../src/telemetry/process-telemetry.js';
import { serverTelemetrySettings } from '../../src/telemetry/settings.js';
import { GYM_PRESETS } from '../../src/telemetry/gates.js';

interface Point {
  attributes: Record<string, unknown>;
  value?: number;
  count?: number;
  sum?: number;
  min?: number;
  max?: number;
  bucket_bounds?: number[];
  bucket_counts?: number[];
}
interface MetricLine {
  type: 'metric';
  name: string;
  description: string;
  unit: string;
  kind: string;
  temporality: string;
  data_points: Point[];
  scope: { name: string };
}

const ENV = { NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'default' };
const SDK_DEFAULT_BOUNDARIES = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];

/** The metric lines of the last export of each metric (the final flush at shutdown). */
async function metricsOf(run: (inject: (url: string, payload: object) => Promise<number>) => Promise<void>): Promise<Map<string, MetricLine>> {
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const telemetry = await initTelemetry({ settings: serverTelemetrySettings(ENV), serverName: 'metrics_fixture', serverType: 'resources_servers', env: ENV, output });
  assert.ok(telemetry, 'telemetry is on');
  const app = createServerApp({ name: 'metrics_fixture', instrumentation: processTelemetry(telemetry).server! });
  let verifies = 0;
  addJsonRoute(app, { method: 'POST', path: '/verify', input: z.looseObject({}), handler: () => ({ reward: 1 }), endpoint: 'verify' });
  addJsonRoute(app, {
    method: 'POST',
    path: '/run',
    input: z.looseObject({}),
    handler: () => {
      // every second rollout fails: both outcomes and a failure's duration are recorded
      if (verifies++ % 2 === 1) throw new Error('rollout failed');
      return { reward: 1 };
    },
    endpoint: 'rollout',
  });
  await run(async (url, payload) => (await app.inject({ method: 'POST', url, payload })).statusCode);
  await app.close();
  await telemetry.shutdown();
  const metrics = new Map<string, MetricLine>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('{"type":"metric"')) continue;
    const metric = JSON.parse(line) as MetricLine;
    metrics.set(metric.name, metric);
  }
  return metrics;
}

/** `metric` is a histogram of gym's scope in ms on the SDK's default buckets, one point without attributes holding `count` values. */
function assertDurationHistogram(metric: MetricLine | undefined, description: string, count: number): void {
  assert.ok(metric, `${description}: exported`);
  assert.deepEqual([metric.unit, metric.kind, metric.temporality, metric.scope.name], ['ms', 'HISTOGRAM', 'CUMULATIVE', 'nemo.gym']);
  assert.equal(metric.description, description);
  assert.equal(metric.data_points.length, 1);
  const [point] = metric.data_points;
  assert.deepEqual(point!.attributes, {});
  assert.equal(point!.count, count);
  assert.deepEqual(point!.bucket_bounds, SDK_DEFAULT_BOUNDARIES);
  assert.equal(
    point!.bucket_counts!.reduce((a, b) => a + b, 0),
    count,
  );
  assert.ok(point!.min! >= 0 && point!.max! >= point!.min! && point!.sum! >= point!.max!);
}

describe('endpoint metrics, telemetry on', () => {
  let metrics: Map<string, MetricLine>;
  before(async () => {
    metrics = await metricsOf(async (inject) => {
      for (let i = 0; i < 3; i++) assert.equal(await inject('/verify', {}), 200);
      assert.equal(await inject('/run', { responses_create_params: { input: 'a' } }), 200);
      assert.equal(await inject('/run', { responses_create_params: { input: 'b' } }), 500);
      // the verify group switched off: its metrics record nothing more (the gate is read per call)
      const groups = GYM_PRESETS['default']!;
      setEnabledSpanGroups(groups.filter((g) => g !== 'verify'));
      assert.equal(await inject('/verify', {}), 200);
      setEnabledSpanGroups(groups);
    });
  });

  it('records every /verify in `gym.verify.duration_ms`, a histogram in ms on the default buckets, without attributes', () => {
    assertDurationHistogram(metrics.get('gym.verify.duration_ms'), 'Wall-clock duration of one /verify', 3);
  });

  it('states the share of completed /verify calls in `gym.verify.success_rate`', () => {
    const metric = metrics.get('gym.verify.success_rate');
    assert.ok(metric, 'gym.verify.success_rate exported');
    assert.equal(metric.description, 'Fraction of /verify calls that completed, since process start');
    assert.deepEqual([metric.unit, metric.kind, metric.scope.name], ['', 'GAUGE', 'nemo.gym']);
    assert.equal(metric.data_points.length, 1);
    assert.deepEqual(metric.data_points[0]!.attributes, {});
    assert.equal(metric.data_points[0]!.value, 1);
  });

  it('records every rollout, failed ones too, in `gym.rollout.duration_ms`, and counts them by outcome', () => {
    assertDurationHistogram(metrics.get('gym.rollout.duration_ms'), 'Wall-clock duration of one rollout (/run), failures included', 2);
    const completed = metrics.get('gym.rollout.completed_total');
    assert.ok(completed);
    const byOutcome = Object.fromEntries(completed.data_points.map((p) => [p.attributes['nemo.gym.rollout.outcome'], p.value]));
    assert.deepEqual(byOutcome, { success: 1, failure: 1 });
  });
});
