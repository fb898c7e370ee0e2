// The lean console record (docs/lens-setup.md, "console"): a resource record once per process per
// file, then lines carrying only their process's identity. Read directly, by
// `show`, `convert`, `push`, `sql` (through the store) and the documented jq recipe, they give what the same spans written the old
// way (a resource block and ISO times on every line) give.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convert } from '../src/commands/convert.js';
import { push } from '../src/commands/push.js';
import { show } from '../src/commands/show.js';
import { sql } from '../src/commands/sql.js';
import { readSpans } from '../src/read/read-spans.js';
import { startOtlpReceiver } from '../src/receive/receiver.js';
import type { SpanRecord } from '../src/span-record.js';
import { capture } from './support/capture.js';
import { AGENT, consoleLine, MODEL, RESOURCES, rolloutSpans, tempDir } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';
import { metricLine } from './support/metric-lines.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

/** A process as its resource record states it. */
interface Process {
  service: string;
  pid: number;
  instance?: string;
}

function resourceAttributes(p: Process): Record<string, unknown> {
  return { 'service.name': p.service, 'process.pid': p.pid, ...(p.instance === undefined ? {} : { 'service.instance.id': p.instance }), 'nemo.run.id': 'run1', 'host.name': 'node-1' };
}

function resourceRecord(p: Process): string {
  const identity = { 'service.name': p.service, ...(p.instance === undefined ? {} : { 'service.instance.id': p.instance }), 'process.pid': p.pid };
  return JSON.stringify({ type: 'resource', ...identity, scope: { name: 'nemo.gym', version: '0.1.0' }, attributes: resourceAttributes(p) });
}

/** An old-shape line (`consoleLine`, or a metric line) rewritten as the lean writer writes it. */
function lean(oldLine: string, p: Process): string {
  const record = JSON.parse(oldLine) as Record<string, unknown>;
  delete record['resource'];
  delete record['start_time'];
  delete record['end_time'];
  if (Array.isArray(record['events']) && record['events'].length === 0) delete record['events'];
  if (Array.isArray(record['links']) && record['links'].length === 0) delete record['links'];
  return JSON.stringify({ ...record, 'service.name': p.service, ...(p.instance === undefined ? { 'process.pid': p.pid } : { 'service.instance.id': p.instance }) });
}

/** The old line of `s` with the resource `p` states (as the writer wrote it before the lean record). */
function old(s: FixtureSpan, p: Process): string {
  const record = JSON.parse(consoleLine(s)) as Record<string, unknown>;
  record['resource'] = { attributes: resourceAttributes(p) };
  return JSON.stringify(record);
}

const agent: Process = { service: AGENT, pid: 101 };
// a model server with two workers on one stdout: their lines interleave in one file
const workers: Process[] = [
  { service: MODEL, pid: 201, instance: 'policy_model-w0' },
  { service: MODEL, pid: 202, instance: 'policy_model-w1' },
];
const resources: Process = { service: RESOURCES, pid: 301 };

/** The same run written old-style and lean: agent, model (two workers) and resources files. */
function writeRun(): { lean: ReturnType<typeof tempDir>; old: ReturnType<typeof tempDir> } {
  const spans = [...rolloutSpans({ rolloutId: '0-0', reward: 1 }), ...rolloutSpans({ rolloutId: '1-0', atMs: 2000, reward: 0 })];
  const processOf = (s: FixtureSpan, i: number): Process => (s.service === AGENT ? agent : s.service === MODEL ? workers[i % 2]! : resources);
  const files = { 'agent.log': [] as string[], 'model.log': [] as string[], 'resources.log': [] as string[] };
  const oldFiles = { 'agent.log': [] as string[], 'model.log': [] as string[], 'resources.log': [] as string[] };
  const stated = new Set<Process>();
  spans.forEach((s, i) => {
    const p = processOf(s, i);
    const file = s.service === AGENT ? 'agent.log' : s.service === MODEL ? 'model.log' : 'resources.log';
    if (!stated.has(p)) {
      files[file].push(resourceRecord(p));
      stated.add(p);
    }
    files[file].push(lean(consoleLine(s), p));
    oldFiles[file].push(old(s, p));
  });
  const metric = (p: Process) => metricLine({ service: p.service, pid: p.pid }, 'nodejs.eventloop.utilization', '1', 'GAUGE', 0, 1000, [{ value: 0.5 }]);
  files['model.log'].push(lean(metric(workers[1]!), workers[1]!));
  oldFiles['model.log'].push(metric(workers[1]!));
  const text = (f: Record<string, string[]>) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, ['INFO: started', ...v, ''].join('\n')]));
  const dirs = { lean: tempDir(text(files)), old: tempDir(text(oldFiles)) };
  cleanups.push(dirs.lean.cleanup, dirs.old.cleanup);
  return dirs;
}

function comparable(spans: SpanRecord[]) {
  return spans.map(({ source: _source, resource, ...rest }) => ({ ...rest, resource: resource.attributes })).sort((a, b) => a.spanId.localeCompare(b.spanId));
}

describe('lean console record', () => {
  it('reads as the same spans and metric points as the old record, each line joined to its process', async () => {
    const run = writeRun();
    const leanRead = await readSpans([run.lean.dir]);
    const oldRead = await readSpans([run.old.dir]);
    assert.equal(leanRead.spans.length, 20);
    assert.deepEqual(comparable(leanRead.spans), comparable(oldRead.spans));
    const models = leanRead.spans.filter((s) => s.service === MODEL);
    assert.deepEqual(new Set(models.map((s) => s.resource.attributes['service.instance.id'])), new Set(['policy_model-w0', 'policy_model-w1']));
    assert.ok(models.every((s) => s.resource.attributes['process.pid'] === (s.resource.attributes['service.instance.id'] === 'policy_model-w0' ? 201 : 202)));
    assert.ok(leanRead.spans.every((s) => s.scope?.name === 'nemo.gym' && s.resource.attributes['nemo.run.id'] === 'run1'));
    assert.equal(leanRead.stats.malformedLines, 0);
    // the worker's metric line carries only its instance id: the pid comes from its resource record
    assert.equal(leanRead.metrics.length, 1);
    assert.equal(leanRead.metrics[0]!.resource.attributes['process.pid'], 202);
    assert.deepEqual(leanRead.metrics[0]!.resource.attributes, resourceAttributes(workers[1]!));
  });

  it('falls back to the identity on the line when its file states no resource, and follows a changed resource', async () => {
    const [a, b] = rolloutSpans({ rolloutId: 'x' });
    const moved = { ...agent, pid: 999 };
    const text = [lean(consoleLine(a!), agent), resourceRecord({ ...agent }).replace('"run1"', '"run2"'), lean(consoleLine(b!), agent), lean(consoleLine(b!), moved)].join('\n');
    const d = tempDir({ 'agent.log': text });
    cleanups.push(d.cleanup);
    const { spans } = await readSpans([d.dir]);
    // a line with no resource record before it in its file has its service name as its resource
    assert.deepEqual(spans[0]!.resource.attributes, { 'service.name': AGENT });
    assert.equal(spans[1]!.resource.attributes['nemo.run.id'], 'run2');
    assert.deepEqual(spans[2]!.resource.attributes, { 'service.name': AGENT });
  });

  it('answers the documented jq recipe as the old record does (resource records have no trace id)', () => {
    const run = writeRun();
    const recipe = (dir: string) => execFileSync('sh', ['-c', `grep -h '"trace_id"' *.log | jq -r '"\\(.trace_id) \\(.name)"' | sort`], { cwd: dir, encoding: 'utf8' });
    const answer = recipe(run.lean.dir);
    assert.equal(answer.trim().split('\n').length, 20);
    assert.equal(answer, recipe(run.old.dir));
  });

  it('gives gym trace sql the same spans and metric points, resource attributes joined', async () => {
    const run = writeRun();
    const query = async (dir: string, q: string) => {
      const c = capture();
      assert.equal(await sql({ paths: [dir], query: q, format: 'json' }, c), 0, c.err);
      return c.out;
    };
    const spans = 'SELECT span_id, service, run_id, resource_attributes, start_ns, end_ns FROM spans ORDER BY span_id';
    const leanSpans = JSON.parse(await query(run.lean.dir, spans)) as Array<{ run_id: string; resource_attributes: Record<string, unknown> }>;
    assert.equal(leanSpans.length, 20);
    assert.ok(leanSpans.every((s) => s.run_id === 'run1'));
    assert.deepEqual(leanSpans, JSON.parse(await query(run.old.dir, spans)));
    const metrics = JSON.parse(await query(run.lean.dir, 'SELECT service, resource_attributes, value FROM metrics')) as Array<{ resource_attributes: string }>;
    assert.equal(metrics.length, 1);
    assert.deepEqual(JSON.parse(metrics[0]!.resource_attributes), resourceAttributes(workers[1]!));
  });

  it('shows and converts as the old record does', async () => {
    const run = writeRun();
    const shown = async (dir: string) => {
      const c = capture();
      assert.equal(await show({ paths: [dir], rollout: '1-0', format: 'json' }, c), 0, c.err);
      // the lean files' lines are numbered one or two further on, after their resource records
      return JSON.parse(c.out.replaceAll(dir, '<dir>'), (k, v: unknown) => (k === 'line' ? undefined : v)) as unknown;
    };
    assert.deepEqual(await shown(run.lean.dir), await shown(run.old.dir));
    const converted = async (dir: string) => {
      const out = join(dir, 'trace.otlp.jsonl');
      assert.equal(await convert({ paths: [join(dir, 'agent.log'), join(dir, 'model.log'), join(dir, 'resources.log')], to: 'otlp-json', out }, capture()), 0);
      return readFileSync(out, 'utf8');
    };
    const leanOtlp = await converted(run.lean.dir);
    assert.equal(leanOtlp, await converted(run.old.dir));
    const request = JSON.parse(leanOtlp.split('\n')[0]!) as { resourceSpans: Array<{ resource: { attributes: Array<{ key: string }> }; scopeSpans: Array<{ scope: { name: string } }> }> };
    assert.ok(request.resourceSpans[0]!.resource.attributes.some((a) => a.key === 'nemo.run.id'));
    assert.equal(request.resourceSpans[0]!.scopeSpans[0]!.scope.name, 'nemo.gym');
  });

  it('pushes to an OTLP receiver the spans, resources and scope the old record gives', async () => {
    const run = writeRun();
    const out = tempDir();
    cleanups.push(out.cleanup);
    const rx = await startOtlpReceiver({ outDir: out.dir, grpcPort: 0, httpPort: 0 });
    try {
      const c = capture();
      assert.equal(await push({ paths: [run.lean.dir], endpoint: `http://127.0.0.1:${rx.httpPort}`, protocol: 'http/protobuf' }, c), 0, c.err);
      assert.match(c.out, /^pushed 20 spans/);
    } finally {
      await rx.close();
    }
    assert.deepEqual(comparable((await readSpans([out.dir])).spans), comparable((await readSpans([run.old.dir])).spans));
  });
});
