// Process saturation and memory profiling through real processes: `gym env start` with console
// telemetry runs a server that burns CPU, holds memory and starts a child; the server's log gets its
// event-loop, GC and heap metrics, the orchestrator's log its own and the memory of the server's
// process tree and of the host.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive, startGymEnv } from '../support/gym-process.js';
import type { GymEnv } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const MIB = 1024 * 1024;
const HELD_MIB = 64;
const CHILD_MIB = 32;

interface MetricLine {
  name: string;
  unit: string;
  kind: string;
  data_points: Array<{ attributes: Record<string, unknown>; value?: number; count?: number; sum?: number }>;
  /** The process's identity (its resource is stated once per file, in a resource record). */
  'service.name': string;
}

/** Every export of every metric in one log file, by name, in order. */
function metricsOf(file: string): Map<string, MetricLine[]> {
  const byName = new Map<string, MetricLine[]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{"type":"metric"')) continue;
    const record = JSON.parse(line) as MetricLine;
    byName.set(record.name, [...(byName.get(record.name) ?? []), record]);
  }
  return byName;
}

function exportsOf(metrics: Map<string, MetricLine[]>, name: string): MetricLine[] {
  const lines = metrics.get(name);
  assert.ok(lines !== undefined && lines.length > 0, `${name} missing; got ${[...metrics.keys()].join(', ')}`);
  return lines;
}

/** The single value of a gauge without attributes, in every export. */
const series = (metrics: Map<string, MetricLine[]>, name: string) => exportsOf(metrics, name).flatMap((l) => l.data_points.map((p) => p.value!));

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as Record<string, unknown>;
};

describe('process metrics of a real environment', () => {
  let env: GymEnv;
  let serverPid: number;
  let childPid: number | undefined;
  let server: Map<string, MetricLine[]>;
  let orchestrator: Map<string, MetricLine[]>;

  before(async () => {
    env = await startGymEnv(
      [
        '--search-dir',
        FIXTURES,
        '--resources-server',
        'burner',
        '++telemetry.enabled=true',
        '++telemetry.exporter=console',
        '++telemetry.memory_profiling.enabled=true',
        '++telemetry.memory_profiling.interval_seconds=0.2',
      ],
      { env: telemetryEnv({ OTEL_METRIC_EXPORT_INTERVAL: '250' }) },
    );
    const burner = env.servers.find((s) => s.process_name === 'burner')!;
    serverPid = burner.pid;
    await post(`${burner.url}/hold`, { mib: HELD_MIB });
    childPid = (await post(`${burner.url}/spawn_child`, { mib: CHILD_MIB }))['pid'] as number;
    // 20 blocks of 100 ms, yielding between them: several export intervals entirely busy
    await post(`${burner.url}/burn`, { blocks: 20, block_ms: 100 });
    assert.equal(await env.stop(), 143, env.output());
    server = metricsOf(join(env.logDir, 'burner.log'));
    orchestrator = metricsOf(join(env.logDir, 'orchestrator.log'));
  });

  after(async () => {
    if (childPid !== undefined && isAlive(childPid)) process.kill(childPid, 'SIGKILL');
    await env?.dispose();
  });

  it('the server reports its event-loop utilization (unit 1), near 1 while it burned CPU', () => {
    assert.equal(exportsOf(server, 'nodejs.eventloop.utilization')[0]!.unit, '1');
    const values = series(server, 'nodejs.eventloop.utilization');
    assert.ok(
      values.every((v) => v >= 0 && v <= 1),
      values.join(' '),
    );
    assert.ok(Math.max(...values) >= 0.8, `utilization ${values.map((v) => v.toFixed(2)).join(' ')}`);
    assert.equal(exportsOf(server, 'nodejs.eventloop.utilization')[0]!['service.name'], 'nemo-gym/burner');
  });

  it('the server reports its event-loop delay in seconds, the 100 ms blocks included', () => {
    for (const stat of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99']) {
      const name = `nodejs.eventloop.delay.${stat}`;
      assert.equal(exportsOf(server, name)[0]!.unit, 's', name);
      assert.equal(exportsOf(server, name)[0]!.kind, 'GAUGE', name);
    }
    const max = Math.max(...series(server, 'nodejs.eventloop.delay.max'));
    assert.ok(max >= 0.1 && max < 60, `delay max ${max}`);
  });

  it('the server reports GC pauses in seconds by v8js.gc.type, and its heap per space in bytes', () => {
    const gc = exportsOf(server, 'v8js.gc.duration').at(-1)!;
    assert.equal(gc.unit, 's');
    assert.equal(gc.kind, 'HISTOGRAM');
    assert.ok(
      gc.data_points.some((p) => p.count! > 0),
      JSON.stringify(gc.data_points),
    );
    for (const p of gc.data_points) assert.ok(['major', 'minor', 'incremental', 'weakcb'].includes(String(p.attributes['v8js.gc.type'])), JSON.stringify(p.attributes));
    for (const name of ['v8js.memory.heap.used', 'v8js.memory.heap.limit']) {
      const heap = exportsOf(server, name).at(-1)!;
      assert.equal(heap.unit, 'By', name);
      const oldSpace = heap.data_points.find((p) => p.attributes['v8js.heap.space.name'] === 'old_space');
      assert.ok(oldSpace !== undefined && oldSpace.value! > 0, name);
    }
  });

  it('the orchestrator reports its own saturation', () => {
    const line = exportsOf(orchestrator, 'nodejs.eventloop.utilization')[0]!;
    assert.equal(line['service.name'], 'nemo-gym/orchestrator');
    assert.ok(exportsOf(orchestrator, 'nodejs.eventloop.delay.p99').length > 0);
  });

  it('the orchestrator samples the memory of the server process tree, with the original names and attributes', () => {
    const tree = { 'nemo.gym.server.name': 'burner', 'nemo.gym.server.type': 'resources_servers', 'process.pid': serverPid };
    const usage = exportsOf(orchestrator, 'gym.server.memory.usage').at(-1)!;
    assert.equal(usage.unit, 'By');
    const rss = usage.data_points.find((p) => p.attributes['memory.type'] === 'rss');
    const pss = usage.data_points.find((p) => p.attributes['memory.type'] === 'pss');
    assert.deepEqual(rss?.attributes, { ...tree, 'memory.type': 'rss' });
    assert.deepEqual(pss?.attributes, { ...tree, 'memory.type': 'pss' });
    // the held buffer and the child's are in it
    assert.ok(rss.value! >= (HELD_MIB + CHILD_MIB) * MIB, `rss ${rss.value}`);
    assert.ok(pss.value! > 0 && pss.value! <= rss.value!);
    const peak = exportsOf(orchestrator, 'gym.server.memory.sampled_peak').at(-1)!;
    assert.equal(peak.unit, 'By');
    assert.ok(peak.data_points.find((p) => p.attributes['memory.type'] === 'rss')!.value! >= rss.value!);
    const processes = exportsOf(orchestrator, 'gym.server.processes').at(-1)!;
    assert.equal(processes.unit, '{process}');
    assert.deepEqual(
      processes.data_points.map((p) => p.attributes),
      [tree],
    );
    assert.ok(processes.data_points[0]!.value! >= 2, 'the server and the child it started');
  });

  it('the orchestrator samples the host memory', () => {
    const memTotal = Number(/^MemTotal:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'))![1]) * 1024;
    const last = (name: string) => {
      const line = exportsOf(orchestrator, name).at(-1)!;
      assert.equal(line.unit, 'By', name);
      assert.deepEqual(
        line.data_points.map((p) => p.attributes),
        [{}],
        name,
      );
      return line.data_points[0]!.value!;
    };
    const total = last('gym.host.memory.total');
    const available = last('gym.host.memory.available');
    assert.equal(total, memTotal);
    assert.ok(available > 0 && available <= total);
    assert.equal(last('gym.host.memory.usage'), total - available);
    assert.ok(last('gym.host.memory.sampled_peak') >= total - available);
  });
});
