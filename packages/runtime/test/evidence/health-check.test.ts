// Rollout health checks on crafted rollouts: trajectories built by the real join from crafted
// captures and observations, checked through the real CLI (`gym eval health-check`).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureAttachment } from '../../src/evidence/capture-records.js';
import { joinTrajectory } from '../../src/evidence/trajectory.js';
import { runHealthCheck } from '../../src/evidence/health-report.js';
import { runGym } from '../support/gym-process.js';
import type { AgentObservationBundle } from '../../../server/src/evidence/observations.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const POLICY = { type: 'responses_api_models', name: 'policy' };
interface CallSpec {
  id: string;
  status?: number;
  completion?: number | null;
  finish?: 'length';
}
/** A rollout row whose evidence went through the real join. */
function row(task: number, rollout: number, calls: CallSpec[], options: { turns?: boolean; answer?: string | null; reportedTotal?: number } = {}) {
  const rolloutId = `${task}-${rollout}`;
  const exchanges = calls.map((c, index) => {
    const ok = (c.status ?? 200) < 400;
    const usage = c.completion === null ? { input_tokens: 10 } : { input_tokens: 10, output_tokens: c.completion ?? 5, total_tokens: 10 + (c.completion ?? 5) };
    const response = ok
      ? { id: `resp_${c.id}`, status: c.finish ? 'incomplete' : 'completed', incomplete_details: c.finish ? { reason: 'max_output_tokens' } : null, output: [], usage }
      : { error: { message: 'upstream down' } };
    return { index, exchange: { model_call_id: c.id, model_ref: POLICY, dialect: 'responses', status_code: c.status ?? 200, error_category: ok ? null : 'server_error', latency_ms: 1, response } };
  });
  const capture = captureAttachment(rolloutId, { exists: true, unreadable: 0, exchanges });
  const invocationId = `${rolloutId}:agent`;
  const refs = calls.map((c) => ({ model_call_id: c.id }));
  const observations: AgentObservationBundle = {
    source: 'test',
    records: [{ kind: 'agent_invocation', invocation_id: invocationId, status: 'completed', model_calls: refs }],
    turns:
      options.turns === false
        ? []
        : [
            {
              invocation_id: invocationId,
              task_id: String(task),
              rollout_id: rolloutId,
              turn_no: 1,
              answer: options.answer === undefined ? 'an answer' : options.answer,
              step_count: calls.length,
              model_calls: refs,
            },
          ],
    gaps: [],
  };
  const trajectory = joinTrajectory({ taskId: String(task), rolloutId, observations, calls: capture.calls });
  const total = capture.metrics.tokens_total;
  return { _ng_task_index: task, _ng_rollout_index: rollout, response: { usage: { total_tokens: options.reportedTotal ?? total } }, reward: 1, ng_trajectory: trajectory };
}

function writeRun(rows: unknown[], extraLines: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'gym-health-'));
  dirs.push(dir);
  const file = join(dir, 'run.jsonl');
  writeFileSync(file, [...rows.map((r) => JSON.stringify(r)), ...extraLines].join('\n') + '\n');
  return file;
}
type Verdict = { rollout_id: string; verdict: string; findings: { check: string; locator: string }[]; unobserved: string[] };
const readVerdicts = (file: string) =>
  readFileSync(file.replace('.jsonl', '_rollout_verdicts.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Verdict);

describe('gym eval health-check', () => {
  it('gives each crafted rollout its verdict and writes the verdicts and the quality summary', async () => {
    const file = writeRun(
      [
        row(1, 0, [{ id: 'a' }, { id: 'b', status: 502 }]), // ended on a failed call
        row(0, 1, [{ id: 'c' }, { id: 'd', completion: 0 }]), // zero completion tokens
        row(0, 0, [{ id: 'e' }, { id: 'f' }]), // healthy
        row(2, 0, [{ id: 'g' }], { turns: false }), // no turns: turn checks unobserved
        row(2, 1, [{ id: 'h', finish: 'length' }]), // runaway generation
        row(3, 0, [{ id: 'i' }], { reportedTotal: 999 }), // usage disagrees with the captured calls
        { _ng_task_index: 4, _ng_rollout_index: 0, reward: 0 }, // no evidence at all
      ],
      ['{"cut short'],
    );
    const run = await runGym(['eval', 'health-check', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Rollout health: 8 checked, 1 healthy, 5 unhealthy, 2 unobserved$/m);
    const verdicts = readVerdicts(file);
    assert.deepEqual(
      verdicts.map((v) => v.rollout_id),
      ['0-0', '0-1', '1-0', '2-0', '2-1', '3-0', '4-0', `__unreadable_record__:run.jsonl:line-8`],
    );
    const byId = new Map(verdicts.map((v) => [v.rollout_id, v]));
    const checks = (id: string) =>
      byId
        .get(id)!
        .findings.map((f) => f.check)
        .sort();
    assert.equal(byId.get('0-0')!.verdict, 'healthy');
    assert.deepEqual(checks('1-0'), ['model_call_failed', 'rollout_ended_on_failed_model_call']);
    assert.equal(byId.get('1-0')!.findings[0]!.locator, 'model_call:b');
    assert.deepEqual(checks('0-1'), ['model_call_zero_completion_tokens']);
    assert.equal(byId.get('2-0')!.verdict, 'unobserved');
    assert.deepEqual(byId.get('2-0')!.unobserved.sort(), ['agent_turn_hollow', 'rollout_missing_agent_turns']);
    assert.deepEqual(checks('2-1'), ['model_call_runaway_generation']);
    assert.deepEqual(checks('3-0'), ['rollout_token_count_mismatch']);
    assert.equal(byId.get('4-0')!.verdict, 'unobserved');
    assert.deepEqual(checks('__unreadable_record__:run.jsonl:line-8'), ['record_unreadable']);
    const summary = JSON.parse(readFileSync(file.replace('.jsonl', '_quality_summary.json'), 'utf8'));
    assert.deepEqual(summary.run, { checked: 8, healthy: 1, unhealthy: 5, unobserved: 2 });
    assert.equal(summary.issues_by_check.model_call_failed, 1);
    assert.deepEqual(summary.model_calls.by_error_category, { server_error: 1 });
    assert.equal(summary.coverage.agent_turn_hollow.unobserved, 2);
    assert.equal(summary.artifacts.unreadable_lines, 1);
  });

  it('flags missing turns, hollow turns, duplicates and tasks that never got a successful call', () => {
    const noTurnFor = row(0, 0, [{ id: 'a' }]);
    noTurnFor.ng_trajectory.turns = [];
    noTurnFor.ng_trajectory.gaps = [];
    const hollow = row(1, 0, [], { answer: null });
    const file = writeRun([noTurnFor, hollow, row(2, 0, [{ id: 'x', status: 500 }]), row(2, 1, [{ id: 'y', status: 500 }]), row(3, 0, [{ id: 'd1' }]), row(3, 0, [{ id: 'd2' }])]);
    const result = runHealthCheck({ rolloutsFile: file });
    assert.deepEqual(result.counts, { checked: 6, healthy: 0, unhealthy: 6, unobserved: 0 });
    const verdicts = readVerdicts(file);
    assert.deepEqual(
      verdicts[0]!.findings.map((f) => f.check),
      ['rollout_missing_agent_turns'],
    );
    assert.deepEqual(
      verdicts[1]!.findings.map((f) => f.check),
      ['agent_turn_hollow'],
    );
    assert.deepEqual(
      verdicts.slice(4).map((v) => v.findings.map((f) => f.check)),
      [['rollout_duplicate_identity'], ['rollout_duplicate_identity']],
    );
    const summary = JSON.parse(readFileSync(result.summaryPath, 'utf8'));
    assert.deepEqual(summary.tasks['2'].flags, ['task_consistently_unhealthy', 'task_no_successful_model_calls']);
    assert.deepEqual(summary.tasks['3'].flags, ['task_consistently_unhealthy']);
  });

  it('judges each rollout by its own row when rows share a trace id (files of one trace per run)', () => {
    const traceId = 'ab'.repeat(16);
    const file = writeRun([
      { ...row(0, 0, [{ id: 'a' }]), trace_id: traceId },
      { ...row(1, 0, [{ id: 'b', status: 502 }]), trace_id: traceId },
    ]);
    runHealthCheck({ rolloutsFile: file });
    const byId = new Map(readVerdicts(file).map((v) => [v.rollout_id, v]));
    assert.equal(byId.get('0-0')!.verdict, 'healthy');
    assert.equal(byId.get('1-0')!.verdict, 'unhealthy');
    assert.equal(byId.get('1-0')!.findings[0]!.locator, 'model_call:b');
  });

  it('--ignore skips checks: their findings vanish and coverage counts them as ignored', async () => {
    const file = writeRun([row(0, 0, [{ id: 'a', completion: 0 }])]);
    const run = await runGym(['eval', 'health-check', file, '--ignore', 'model_call_zero_completion_tokens']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /1 checked, 1 healthy/);
    const summary = JSON.parse(readFileSync(file.replace('.jsonl', '_quality_summary.json'), 'utf8'));
    assert.deepEqual(summary.coverage.model_call_zero_completion_tokens, { evaluated: 0, unobserved: 0, ignored: 1 });
    const bad = await runGym(['eval', 'health-check', file, '--ignore', 'no_such_check']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Unknown check id\(s\) no_such_check/);
  });

  it('a file without any evidence (collected with it off) says why every rollout is unobserved', async () => {
    const file = writeRun([{ _ng_task_index: 0, _ng_rollout_index: 0, reward: 1, response: { output: [] } }]);
    const run = await runGym(['eval', 'health-check', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /1 checked, 0 healthy, 0 unhealthy, 1 unobserved/);
    assert.match(run.stdout, /carries rollout evidence.*\+\+observability_enabled=true \+\+model_call_capture_dir=/);
    const withEvidence = writeRun([row(0, 0, [{ id: 'a' }])]);
    const healthy = await runGym(['eval', 'health-check', withEvidence]);
    assert.doesNotMatch(healthy.stdout, /carries rollout evidence/);
  });
});
