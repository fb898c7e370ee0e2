// One rollout, one trace, under `default` too: the job is a trace of its own, each rollout's first
// span (the collector's call to the agent's /run) starts a trace that links to the job's span and
// names the run, and `gym trace` still reads the run as one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSpans, startOtlpReceiver } from '@gym/trace';
import { consoleTelemetryRun, EXAMPLE_EVAL_RUN, freePort, runGym } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

interface SpanLine {
  type: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  attributes: Record<string, unknown>;
  links?: Array<{ trace_id: string; span_id: string }>;
}

function spansIn(logDir: string): SpanLine[] {
  return readdirSync(logDir)
    .filter((f) => f.endsWith('.log'))
    .flatMap((f) => readFileSync(join(logDir, f), 'utf8').split('\n'))
    .filter((l) => l.startsWith('{"type":"span"'))
    .map((l) => JSON.parse(l) as SpanLine);
}

describe('default preset: one trace per rollout', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-rollout-traces-'));
  const logDir = join(dir, 'logs');
  const output = join(dir, 'rollouts.jsonl');
  let run: { code: number | null; stdout: string; stderr: string };
  before(async () => {
    run = await runGym([...EXAMPLE_EVAL_RUN, '--limit', '2', '--num-repeats', '2', ...(await consoleTelemetryRun(output, logDir, 'default'))], { env: telemetryEnv({}) });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes as many traces as rollouts, plus the job', () => {
    assert.equal(run.code, 0, run.stderr);
    const spans = spansIn(logDir);
    const rows = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { trace_id: string });
    assert.equal(rows.length, 4);
    const rolloutTraces = new Set(spans.filter((s) => s.name === 'gym.rollout').map((s) => s.trace_id));
    assert.equal(rolloutTraces.size, 4, 'each gym.rollout in a trace of its own');
    assert.deepEqual(new Set(rows.map((r) => r.trace_id)), rolloutTraces, 'each row names its rollout trace');
    const job = spans.find((s) => s.name === 'gym.job');
    assert.ok(job !== undefined);
    // the startup of the servers is a trace of its own, as before; the rest is the rollouts and the job
    const startup = new Set(spans.filter((s) => s.name.startsWith('gym.startup')).map((s) => s.trace_id));
    const traces = new Set(spans.map((s) => s.trace_id).filter((t) => !startup.has(t)));
    assert.equal(traces.size, 4 + 1);
    assert.ok(!rolloutTraces.has(job.trace_id));
  });

  it("links each rollout's first span to the job's span and names the run", () => {
    const spans = spansIn(logDir);
    const job = spans.find((s) => s.name === 'gym.job')!;
    const roots = spans.filter((s) => s.parent_span_id === null && s.attributes['nemo.gym.rollout.id'] !== undefined);
    assert.equal(roots.length, 4);
    const runId = /run id ([0-9a-f]+)/.exec(run.stderr)?.[1];
    assert.ok(runId !== undefined, run.stderr);
    for (const root of roots) {
      assert.equal(root.name, 'HTTP POST');
      assert.deepEqual(
        root.links?.map((l) => [l.trace_id, l.span_id]),
        [[job.trace_id, job.span_id]],
      );
      assert.equal(root.attributes['gym.run.id'], runId);
    }
  });

  it('gym trace stats and show read the run; show --trace shows the job', async () => {
    const stats = await runGym(['trace', 'stats', logDir, '--json']);
    assert.equal(stats.code, 0, stats.stderr);
    const groups = (JSON.parse(stats.stdout) as { groups: Array<{ key: string; count: number }> }).groups;
    assert.equal(groups.find((g) => g.key === 'gym.rollout')?.count, 4);
    const list = await runGym(['trace', 'show', logDir]);
    assert.equal(list.code, 0, list.stderr);
    for (const id of ['0-0', '0-1', '1-0', '1-1']) assert.match(list.stdout, new RegExp(`^${id} `, 'm'));
    const job = spansIn(logDir).find((s) => s.name === 'gym.job')!;
    const shown = await runGym(['trace', 'show', '--trace', job.trace_id, logDir]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /gym\.job +orchestrator/);
  });
});

describe('default preset over OTLP', () => {
  it("carries each rollout root's link to the job to the collector", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-rollout-traces-otlp-'));
    const rx = await startOtlpReceiver({ outDir: join(dir, 'received'), grpcPort: 0, httpPort: 0 });
    try {
      const args = [...EXAMPLE_EVAL_RUN, '--limit', '2', '-o', join(dir, 'out.jsonl'), '--log-dir', join(dir, 'logs'), `++head_server.port=${await freePort()}`];
      const env = telemetryEnv({
        NEMO_GYM_OTEL_ENABLED: '1',
        NEMO_GYM_OTEL_EXPORTER: 'otlp',
        NEMO_GYM_OTEL_SPAN_GROUPS: 'default',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${rx.httpPort}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      });
      const { code, stderr } = await runGym(args, { env });
      assert.equal(code, 0, stderr);
      await rx.close();
      const { spans } = await readSpans([join(dir, 'received')]);
      const job = spans.find((s) => s.name === 'gym.job');
      assert.ok(job !== undefined, 'the job reached the collector');
      const roots = spans.filter((s) => s.parentSpanId === null && s.attributes['nemo.gym.rollout.id'] !== undefined);
      assert.equal(roots.length, 2);
      for (const root of roots)
        assert.deepEqual(
          root.links?.map((l) => [l.traceId, l.spanId]),
          [[job.traceId, job.spanId]],
        );
      assert.equal(new Set(roots.map((r) => r.traceId)).size, 2);
    } finally {
      await rx.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('telemetry off: no spans, the same rollouts', () => {
  it('a run without telemetry writes no span and no run id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-rollout-traces-off-'));
    try {
      const logDir = join(dir, 'logs');
      const args = [...EXAMPLE_EVAL_RUN, '--limit', '1', '-o', join(dir, 'out.jsonl'), '--log-dir', logDir, `++head_server.port=${await freePort()}`];
      const { code, stderr } = await runGym(args, { env: telemetryEnv({ NEMO_GYM_OTEL_ENABLED: '0' }) });
      assert.equal(code, 0, stderr);
      assert.equal(spansIn(logDir).length, 0);
      assert.equal(readFileSync(join(dir, 'out.jsonl'), 'utf8').trim().split('\n').length, 1);
      assert.doesNotMatch(readFileSync(join(dir, 'out.jsonl'), 'utf8'), /gym\.run\.id/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
