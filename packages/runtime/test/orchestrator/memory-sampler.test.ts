// The orchestrator's memory sampler on a real OpenTelemetry SDK meter and a real process tree.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { MetricData } from '@opentelemetry/sdk-metrics';
import { MEMORY_METRIC, startMemoryProfiling, startMemorySampler } from '../../src/orchestrator/memory-sampler.js';
import { procAvailable } from '../../src/orchestrator/proc-memory.js';
import { resolveTelemetrySettings } from '../../../server/src/telemetry/settings.js';
import type { GymTelemetry } from '../../../server/src/telemetry/state.js';
import { startProcessTree } from './process-tree.js';
import type { ProcessTree } from './process-tree.js';

const MIB = 1024 * 1024;

class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

function meterWithReader() {
  const reader = new OnDemandReader();
  const provider = new MeterProvider({ readers: [reader] });
  const collect = async () => {
    const { resourceMetrics } = await reader.collect();
    return new Map<string, MetricData>(resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).map((m) => [m.descriptor.name, m]));
  };
  return { meter: provider.getMeter('test'), provider, collect };
}

const points = (metrics: Map<string, MetricData>, name: string) => (metrics.get(name)?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value as number }));

describe('memory sampler', { skip: procAvailable() ? false : 'no /proc (not Linux)' }, () => {
  let tree: ProcessTree;
  const { meter, provider, collect } = meterWithReader();
  before(async () => {
    tree = await startProcessTree(40, 20);
  });
  after(async () => {
    tree?.stop();
    await provider.shutdown();
  });

  it('records each server tree and the host with the original names, units and attributes; skips a server that is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const sampler = startMemorySampler({
      meter,
      intervalMs: 60_000,
      servers: [
        { name: 'probe', type: 'resources_servers', pid: tree.pid },
        { name: 'gone', type: 'responses_api_models', pid: gone },
        { name: 'never_started', type: 'responses_api_agents', pid: undefined },
      ],
    });
    await sampler.sample(); // PSS is read off the event loop
    const metrics = await collect();
    const server = { 'nemo.gym.server.name': 'probe', 'nemo.gym.server.type': 'resources_servers', 'process.pid': tree.pid };
    const usage = points(metrics, MEMORY_METRIC.SERVER_USAGE);
    assert.deepEqual(
      usage.map((p) => p.attributes),
      [
        { ...server, 'memory.type': 'rss' },
        { ...server, 'memory.type': 'pss' },
      ],
    );
    assert.ok(usage[0]!.value >= 60 * MIB, `rss ${usage[0]!.value}`);
    assert.ok(usage[1]!.value > 0 && usage[1]!.value <= usage[0]!.value);
    assert.deepEqual(points(metrics, MEMORY_METRIC.SERVER_PROCESSES), [{ attributes: server, value: 2 }]);
    assert.deepEqual(
      points(metrics, MEMORY_METRIC.SERVER_SAMPLED_PEAK).map((p) => p.attributes),
      usage.map((p) => p.attributes),
    );
    const units = Object.fromEntries([...metrics.values()].map((m) => [m.descriptor.name, m.descriptor.unit]));
    assert.deepEqual(units, {
      [MEMORY_METRIC.SERVER_USAGE]: 'By',
      [MEMORY_METRIC.SERVER_SAMPLED_PEAK]: 'By',
      [MEMORY_METRIC.SERVER_PROCESSES]: '{process}',
      [MEMORY_METRIC.HOST_USAGE]: 'By',
      [MEMORY_METRIC.HOST_AVAILABLE]: 'By',
      [MEMORY_METRIC.HOST_TOTAL]: 'By',
      [MEMORY_METRIC.HOST_SAMPLED_PEAK]: 'By',
    });
    const host = (name: string) => {
      const [point, ...rest] = points(metrics, name);
      assert.deepEqual(rest, []);
      assert.deepEqual(point!.attributes, {});
      return point!.value;
    };
    assert.equal(host(MEMORY_METRIC.HOST_USAGE), host(MEMORY_METRIC.HOST_TOTAL) - host(MEMORY_METRIC.HOST_AVAILABLE));
    assert.ok(host(MEMORY_METRIC.HOST_SAMPLED_PEAK) >= host(MEMORY_METRIC.HOST_USAGE));

    // the child ends: the next sample counts one process, and the peak keeps the larger tree
    const peakBefore = points(metrics, MEMORY_METRIC.SERVER_SAMPLED_PEAK)[0]!.value;
    await tree.killChild();
    sampler.stop(); // the last sample
    sampler.stop();
    const later = await collect();
    assert.equal(points(later, MEMORY_METRIC.SERVER_PROCESSES)[0]!.value, 1);
    const rss = points(later, MEMORY_METRIC.SERVER_USAGE)[0]!.value;
    assert.ok(rss < usage[0]!.value, `rss ${rss} after the child ended, ${usage[0]!.value} before`);
    assert.equal(points(later, MEMORY_METRIC.SERVER_SAMPLED_PEAK)[0]!.value, Math.max(peakBefore, rss));
  });

  it('is started by the orchestrator only when memory_profiling is on and its metrics are exported', () => {
    const on = { NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED: '1' };
    const telemetryOf = (env: Record<string, string>, isExportingMetrics = true) =>
      ({ lens: { getMeter: () => meterWithReader().meter }, settings: resolveTelemetrySettings(undefined, env).settings, isExportingMetrics }) as unknown as GymTelemetry;
    const servers = [{ name: 'probe', type: 'resources_servers', pid: tree.pid }];
    const started = startMemoryProfiling(telemetryOf(on), servers);
    assert.ok(started);
    started.stop();
    assert.equal(startMemoryProfiling(undefined, servers), undefined);
    assert.equal(startMemoryProfiling(telemetryOf({ NEMO_GYM_OTEL_ENABLED: '1' }), servers), undefined);
    // metrics off, or the SDK disabled: setup reports that no metric is exported
    assert.equal(startMemoryProfiling(telemetryOf(on, false), servers), undefined);
  });
});
