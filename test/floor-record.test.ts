// The floor of `npm run bench -- floor` (bench/support/floor-tracer.ts) must write the record gym
// writes, or the budgets read from it compare different work. Here one SERVER span goes through
// gym's real console exporter and one through the floor's tracer, and their fields are compared.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { getLeanTracer } from '@gym/lens';
import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';
import { CONSOLE_SPAN_FIELDS } from '@gym/names';
import { epochNanosText, floorSpanLine } from '../bench/support/floor-record.js';
import { FloorTracer, extractTraceparent, injectTraceparent } from '../bench/support/floor-tracer.js';

type Line = Record<string, any>;
const SERVICE = 'nemo-gym/simple_agent';
const SPAN_KIND_SERVER = 1;

function textSink(): { stream: Writable; lines(): Line[] } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString('utf8');
      callback();
    },
  });
  const lines = () =>
    text
      .split('\n')
      .filter((l) => l.startsWith('{"type":'))
      .map((l) => JSON.parse(l) as Line);
  return { stream, lines };
}

/** What gym's console exporter writes for one ended SERVER span. */
async function gymLines(): Promise<Line[]> {
  const sink = textSink();
  const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'console', metricsEnabled: false, logsEnabled: false, serviceName: SERVICE }), {
    output: sink.stream,
    allowReinit: true,
  });
  const attributes = { 'http.request.method': 'POST', 'url.path': '/run', 'nemo.gym.server.name': 'simple_agent', 'http.route': '/run' };
  const span = getLeanTracer('nemo.gym', '0.1.0').startSpan('POST /run', SPAN_KIND_SERVER, undefined, attributes);
  span.setAttribute('http.response.status_code', 200);
  span.end();
  await handle.shutdown();
  return sink.lines();
}

/** What the floor's tracer writes for the same span. */
async function floorLines(): Promise<Line[]> {
  const sink = textSink();
  const tracer = new FloorTracer(sink.stream, { serviceName: SERVICE, pid: process.pid }, { 'service.name': SERVICE, 'process.pid': process.pid });
  const span = tracer.start('POST /run', 'SERVER', undefined);
  tracer.end(span, '{"http.request.method":"POST","url.path":"/run","nemo.gym.server.name":"simple_agent","http.route":"/run","http.response.status_code":200}');
  await tracer.close();
  return sink.lines();
}

const gym = await gymLines();
const floor = await floorLines();
const gymSpan = gym.find((l) => l['type'] === 'span')!;
const floorSpan = floor.find((l) => l['type'] === 'span')!;
// gym's lines carry no resource block (the lean record); a file written before it would
const gymWritesLeanRecord = !('resource' in gymSpan);

describe("the floor's record", () => {
  it('is the lean console record: a resource record first, then span lines closed by their process identity', () => {
    assert.deepEqual(Object.keys(floor[0]!), ['type', 'service.name', 'process.pid', 'attributes']);
    assert.equal(floor[0]!['type'], 'resource');
    // the fields in @gym/names's order, without events, links and a service instance id (none here)
    assert.deepEqual(
      Object.keys(floorSpan),
      CONSOLE_SPAN_FIELDS.filter((f) => !['events', 'links', 'service.instance.id'].includes(f)),
    );
    assert.match(floorSpan['trace_id'], /^[0-9a-f]{32}$/);
    assert.match(floorSpan['span_id'], /^[0-9a-f]{16}$/);
    assert.equal(floorSpan['parent_span_id'], null);
    assert.deepEqual(floorSpan['status'], { code: 'UNSET', message: null });
    assert.equal(floorSpan['service.name'], SERVICE);
    assert.equal(floorSpan['process.pid'], process.pid);
    assert.ok(BigInt(floorSpan['end_time_unix_nano']) >= BigInt(floorSpan['start_time_unix_nano']));
  });

  it('names a service instance instead of the pid when the resource has one, and escapes what it quotes', () => {
    const line = floorSpanLine(
      { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), parentSpanId: 'c'.repeat(16), name: 'say "hi"', kind: 'CLIENT', startMs: 1000.5, endMs: 1002.25, error: 'bad\nthing', attributes: '{}' },
      `"service.name":"s","service.instance.id":"i-1"}`,
    );
    const parsed = JSON.parse(line) as Line;
    assert.equal(parsed['name'], 'say "hi"');
    assert.equal(parsed['parent_span_id'], 'c'.repeat(16));
    assert.deepEqual(parsed['status'], { code: 'ERROR', message: 'bad\nthing' });
    assert.equal(parsed['duration_ms'], 1.75);
    assert.equal(parsed['service.instance.id'], 'i-1');
    assert.ok(!('process.pid' in parsed));
  });

  it('writes exact epoch nanoseconds', () => {
    assert.equal(epochNanosText(1_796_180_913_366.25), '1796180913366250000');
    assert.equal(epochNanosText(1_796_180_913_366), '1796180913366000000');
    assert.equal(epochNanosText(1000.000001), '1000000001');
    assert.equal(epochNanosText(5.9999999999), '6000000');
  });

  it('carries the parent in a W3C traceparent and reads it back', () => {
    const context = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };
    assert.equal(injectTraceparent(context), '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    assert.deepEqual(extractTraceparent(injectTraceparent(context)), context);
    assert.equal(extractTraceparent('garbage'), undefined);
    assert.equal(extractTraceparent(undefined), undefined);
  });

  it(
    "has gym's fields in gym's order (span line, status, resource record)",
    { todo: gymWritesLeanRecord ? false : 'gym still writes the resource on every span line: the lean record lands with the console writer change' },
    () => {
      assert.deepEqual(Object.keys(floorSpan), Object.keys(gymSpan));
      assert.deepEqual(Object.keys(floorSpan['status']), Object.keys(gymSpan['status']));
      const gymResource = gym.find((l) => l['type'] === 'resource');
      assert.ok(gymResource !== undefined, 'gym writes a resource record');
      assert.deepEqual(Object.keys(floor[0]!), Object.keys(gymResource));
      assert.equal(gym[0], gymResource, 'the resource record comes first');
    },
  );
});
