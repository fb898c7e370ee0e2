// The naming contract (`@gym/names`) end to end: a real `gym eval run` writes console telemetry
// files (real processes, every span group on, memory profiling on), and `@gym/trace` reads them
// back. Every console record has exactly the contract's fields and reads back whole; every span
// name and attribute key of the contract is written by the run and found by the reader, every
// metric name is written (the reader keeps the saturation ones), except the few this run cannot
// produce, each listed with why.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ATTR, CONSOLE_SPAN_FIELDS, CONSOLE_SPAN_OPTIONAL_FIELDS, METRIC, SPAN } from '@gym/names';
import { isTruncated, readSpans, rewardOf, rolloutIdOf } from '@gym/trace';
import type { MetricPoint, SpanRecord } from '@gym/trace';
import { consoleTelemetryRun, EXAMPLE_EVAL_RUN, runGym } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

/** Names of the contract one short, clean run does not write, and why. */
const NOT_IN_THIS_RUN: Record<string, string> = {
  [ATTR.ROLLOUT_OUTCOME]: 'set by agents that report an outcome; simple_agent does not',
  [ATTR.MODEL_DIALECT]: 'set by the OpenAI-compatible model servers, not simulated_model',
  [ATTR.RETRY_REASON]: 'a clean run retries nothing',
  [ATTR.TRUNCATED]: 'every span of a clean run ends before shutdown',
  [ATTR.TRUNCATED_REASON]: 'every span of a clean run ends before shutdown',
  [ATTR.ERROR_TYPE]: 'a clean run has no failed request',
  [ATTR.RESEND_COUNT]: 'a clean run retries nothing',
  [ATTR.GEN_AI_RESPONSE_ID]: 'simulated_model answers without a response id attribute',
  [ATTR.GEN_AI_FINISH_REASONS]: 'simulated_model reports no finish reason',
  [METRIC.HTTP_RETRY_TOTAL]: 'a clean run retries nothing',
};

describe('the naming contract on a real run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-names-run-'));
  const logDir = join(dir, 'logs');
  const rawSpans: Array<Record<string, unknown>> = [];
  /** Each span's resource record (the one its file stated last for its process). */
  const statedFor = new Map<Record<string, unknown>, Record<string, unknown>>();
  const rawMetricNames = new Set<string>();
  let spans: SpanRecord[] = [];
  let metrics: MetricPoint[] = [];

  before(async () => {
    const run = await runGym([...EXAMPLE_EVAL_RUN, '--limit', '1', ...(await consoleTelemetryRun(join(dir, 'rollouts.jsonl'), logDir, 'all')), '++telemetry.memory_profiling.enabled=true'], {
      env: telemetryEnv({}),
    });
    assert.equal(run.code, 0, run.stderr);
    for (const file of readdirSync(logDir).filter((f) => f.endsWith('.log'))) {
      const stated = new Map<string, Record<string, unknown>>();
      const identity = (r: Record<string, unknown>) => `${String(r['service.name'])}|${String(r['service.instance.id'] ?? `pid ${String(r['process.pid'])}`)}`;
      for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
        if (line.startsWith('{"type":"resource"')) {
          const record = JSON.parse(line) as Record<string, unknown>;
          stated.set(identity(record), record);
        }
        if (line.startsWith('{"type":"span"')) {
          const record = JSON.parse(line) as Record<string, unknown>;
          rawSpans.push(record);
          const resource = stated.get(identity(record));
          if (resource !== undefined) statedFor.set(record, resource);
        }
        if (line.startsWith('{"type":"metric"')) rawMetricNames.add((JSON.parse(line) as { name: string }).name);
      }
    }
    ({ spans, metrics } = await readSpans([logDir]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every span record with exactly the contract fields, in order, after its resource record', () => {
    assert.ok(rawSpans.length > 10, `only ${rawSpans.length} span records`);
    const optional = new Set<string>(CONSOLE_SPAN_OPTIONAL_FIELDS);
    for (const record of rawSpans) {
      const keys = Object.keys(record);
      // the contract's fields in its order, the optional ones only when present, one identity field
      assert.deepEqual(
        keys,
        [...CONSOLE_SPAN_FIELDS].filter((f) => !optional.has(f) || f in record),
      );
      assert.equal(['service.instance.id', 'process.pid'].filter((f) => f in record).length, 1, keys.join());
      assert.ok(statedFor.has(record), `no resource record before span ${String(record['span_id'])}`);
    }
  });

  it('reads every record back through @gym/trace, field by field', () => {
    assert.equal(spans.length, rawSpans.length);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    for (const raw of rawSpans) {
      const span = byId.get(raw['span_id'] as string);
      assert.ok(span !== undefined, `span ${String(raw['span_id'])} not read back`);
      const status = raw['status'] as { code: string; message: string | null };
      const stated = statedFor.get(raw)!;
      const resource = stated['attributes'] as Record<string, unknown>;
      // a span of gym's own scope leaves it to the resource record
      const scope = (raw['scope'] ?? stated['scope']) as { name: string };
      assert.equal(span.traceId, raw['trace_id']);
      assert.equal(span.parentSpanId, raw['parent_span_id']);
      assert.equal(span.name, raw['name']);
      assert.equal(span.kind, raw['kind']);
      assert.equal(span.startNs, BigInt(raw['start_time_unix_nano'] as string));
      assert.equal(span.endNs, BigInt(raw['end_time_unix_nano'] as string));
      assert.ok(Math.abs(span.durationMs - (raw['duration_ms'] as number)) < 0.001);
      assert.equal(span.status.code, status.code);
      assert.deepEqual(span.attributes, raw['attributes']);
      assert.deepEqual(
        span.events.map((e) => e.name),
        ((raw['events'] ?? []) as Array<{ name: string }>).map((e) => e.name),
      );
      assert.deepEqual(span.resource.attributes, resource);
      assert.equal(span.service, resource[ATTR.SERVICE_NAME]);
      assert.equal(span.service, raw[ATTR.SERVICE_NAME]);
      assert.equal(span.scope?.name, scope.name);
      assert.equal(isTruncated(span), false);
    }
  });

  it('writes and reads back every span name and attribute key, and writes every metric name, of the contract', () => {
    const written = new Set<string>();
    for (const s of spans) {
      written.add(s.name);
      if (s.name.startsWith(SPAN.MODEL_PREFIX)) written.add(SPAN.MODEL_PREFIX);
      for (const key of Object.keys(s.attributes)) written.add(key);
      for (const key of Object.keys(s.resource.attributes)) written.add(key);
    }
    for (const m of metrics) for (const key of Object.keys(m.attributes)) written.add(key);
    for (const name of rawMetricNames) written.add(name);
    const contract = [...Object.values(SPAN), ...Object.values(ATTR), ...Object.values(METRIC)];
    const missing = contract.filter((name) => !written.has(name) && !(name in NOT_IN_THIS_RUN));
    assert.deepEqual(missing, []);
    // the exceptions stay honest: a name listed as not written must really be absent
    assert.deepEqual(
      Object.keys(NOT_IN_THIS_RUN).filter((name) => written.has(name)),
      [],
    );
  });

  it('reads back the memory metrics its saturation view uses', () => {
    const read = new Set(metrics.map((m) => m.name));
    for (const name of [METRIC.SERVER_MEMORY_USAGE, METRIC.SERVER_PROCESSES, METRIC.HOST_MEMORY_USAGE, METRIC.HOST_MEMORY_TOTAL]) assert.ok(read.has(name), name);
  });

  it("answers through the reader's helpers by the contract's names", () => {
    const rollout = spans.find((s) => s.name === SPAN.ROLLOUT);
    const verify = spans.find((s) => s.name === SPAN.VERIFY);
    assert.ok(rollout !== undefined && verify !== undefined);
    assert.equal(rolloutIdOf(rollout), '0-0');
    assert.equal(rolloutIdOf(verify), '0-0');
    assert.equal(rewardOf(verify), 1);
  });
});
