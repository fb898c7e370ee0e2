// Trace sampling over real processes, the way docs/observability/at-scale.md tells a user to keep
// telemetry cheap at high concurrency: `per_rollout` (one trace per rollout) with
// `parentbased_traceidratio`. The collector decides once per rollout; every server follows the
// caller's decision, so a rollout is traced whole or not at all, and the metrics still count every
// rollout.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleTraces, findRollouts, readSpans } from '@gym/trace';
import { readRecords } from '../support/console-records.js';
import { consoleTelemetryRun, EXAMPLE_EVAL_RUN, runGym } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const ROLLOUTS = 40;

describe('per_rollout with parentbased_traceidratio 0.5', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-sampling-'));
  const logDir = join(dir, 'logs');
  before(async () => {
    const run = await runGym(
      [...EXAMPLE_EVAL_RUN, '--limit', '1', '--num-repeats', String(ROLLOUTS), '--concurrency', '8', ...(await consoleTelemetryRun(join(dir, 'rollouts.jsonl'), logDir, 'per_rollout'))],
      { env: telemetryEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' }) },
    );
    assert.equal(run.code, 0, run.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('traces some rollouts, each whole across every process, and nothing of the others', async () => {
    const { spans } = await readSpans([logDir]);
    const set = assembleTraces(spans);
    const rollouts = findRollouts(set);
    // 40 independent coin flips: all or none sampled has a chance of 2 in 2^40
    assert.ok(rollouts.length > 0 && rollouts.length < ROLLOUTS, `${rollouts.length} of ${ROLLOUTS} rollouts traced`);
    // a server that made a span for a sampled-out rollout would leave it without its parent
    assert.equal(set.orphanCount, 0);
    for (const rollout of rollouts) assert.ok(rollout.verify !== null, `rollout ${rollout.rolloutId} traced without its verify`);
    const services = new Set(spans.map((s) => s.service));
    for (const service of ['nemo-gym/orchestrator', 'nemo-gym/example_single_tool_call_simple_agent', 'nemo-gym/policy_model', 'nemo-gym/example_single_tool_call'])
      assert.ok(services.has(service), `no span from ${service}`);
    // one trace per traced rollout; the only other trace the collector may start (sampled too) is
    // its closing /aggregate_metrics call
    assert.equal(new Set(rollouts.map((r) => r.traceId)).size, rollouts.length);
    const others = [...set.traces.values()].filter((t) => !rollouts.some((r) => r.traceId === t.traceId));
    for (const trace of others) assert.match(String(trace.roots[0]?.span.attributes['url.full']), /\/aggregate_metrics$/, `a trace without a rollout: ${trace.traceId}`);
  });

  it('tells a user who asks for a rollout that was not traced why it may be missing', async () => {
    const { spans } = await readSpans([logDir]);
    const traced = new Set(findRollouts(assembleTraces(spans)).map((r) => r.rolloutId));
    const index = (id: string) => Number(id.split('-')[1]);
    // an id in a gap: not traced, with a traced rollout after it
    const missing = Array.from({ length: ROLLOUTS }, (_, i) => `0-${i}`).find((id) => !traced.has(id) && [...traced].some((t) => index(t) > index(id)))!;
    const show = await runGym(['trace', 'show', '--rollout', missing, logDir]);
    assert.equal(show.code, 2, show.stderr);
    assert.match(show.stderr, new RegExp(`GYM_TRACE_ROLLOUT_NOT_FOUND.*'${missing}'.*sampled its traces \\(OTEL_TRACES_SAMPLER\\)`));
    // an id past every rollout of the run is a mistake, not sampling
    const beyond = await runGym(['trace', 'show', '--rollout', '0-999', logDir]);
    assert.equal(beyond.code, 2, beyond.stderr);
    assert.doesNotMatch(beyond.stderr, /OTEL_TRACES_SAMPLER/);
  });

  it('still counts every rollout in the metrics', () => {
    const { metrics } = readRecords(logDir);
    const completed = metrics.filter((m) => m.name === 'gym.rollout.completed_total');
    assert.ok(completed.length > 0, 'no gym.rollout.completed_total');
    // cumulative: the last export of the agent holds the run's total
    const last = completed.at(-1)!['data_points'] as Array<{ value: number }>;
    assert.equal(
      last.reduce((n, p) => n + p.value, 0),
      ROLLOUTS,
    );
  });
});
