import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { GymHttpRequestError } from '../../../server/src/http/errors.js';
import { collectRollouts } from '../../src/rollouts/collect.js';
import { keysOf, readRows, startTestAgent, tempRun } from './test-agent.js';
import type { TestAgent } from './test-agent.js';

const cleanups: (() => unknown)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});
async function setup(n: number, options: Parameters<typeof startTestAgent>[0] = {}) {
  const agent = await startTestAgent(options);
  const run = tempRun(n);
  cleanups.push(() => agent.close(), run.cleanup);
  return { agent, run };
}
const allKeys = (tasks: number, repeats: number) => Array.from({ length: tasks * repeats }, (_, i) => `${Math.floor(i / repeats)}:${i % repeats}`).sort();

describe('collectRollouts', () => {
  it('writes one row per (task, rollout) with the collector keys and the trace id header', async () => {
    const traceId = 'abcdef0123456789abcdef0123456789';
    const { agent, run } = await setup(3, {
      run: (body, ctx) => {
        if (body._ng_task_index === 0) ctx.reply.header('x-gym-trace-id', traceId);
        return { reward: body._ng_rollout_index === 0 ? 1 : 0, echoed_id: body['id'] };
      },
    });
    const result = await collectRollouts({ environment: agent.environment, input: run.input, output: run.output, numRepeats: 2 });
    const rows = readRows(run.output);
    assert.deepEqual(keysOf(rows), allKeys(3, 2));
    assert.equal(result.succeeded, 6);
    assert.equal(result.incomplete, 0);
    for (const row of rows) {
      // as the original's `+agent_name`: the name only
      assert.deepEqual(row['agent_ref'], { name: 'test_agent' });
      assert.equal(row['trace_id'], row['_ng_task_index'] === 0 ? traceId : undefined);
    }
    // rewards are written as the original writes its floats
    const lines = readFileSync(run.output, 'utf8').trimEnd().split('\n');
    assert.deepEqual(lines.map((l) => /"reward":([^,}]+)/.exec(l)?.[1]).sort(), ['0.0', '0.0', '0.0', '1.0', '1.0', '1.0']);
    assert.deepEqual(keysOf(readRows(run.output.replace('.jsonl', '_materialized_inputs.jsonl'))), allKeys(3, 2));
    const metrics = JSON.parse(readFileSync(result.paths.aggregateMetrics, 'utf8')) as { agent_metrics: Record<string, number> }[];
    assert.equal(metrics[0]!.agent_metrics['mean/reward'], 0.5);
    assert.equal(metrics[0]!.agent_metrics['pass@2/accuracy'], 100);
    assert.equal(agent.stats.aggregateCalls.length, 1);
  });

  it('keeps at most --concurrency rollouts in flight', async () => {
    const limit = 3;
    const total = 10;
    // release a batch once the collector has as many in flight as it may
    const { agent, run } = await setup(total, { gate: (s) => s.inFlight >= Math.min(limit, total - s.completed) });
    await collectRollouts({ environment: agent.environment, input: run.input, output: run.output, concurrency: limit });
    assert.equal(agent.stats.maxInFlight, limit);
    assert.equal(readRows(run.output).length, total);
  });

  it('dispatches every row at once without --concurrency', async () => {
    const total = 12;
    const { agent, run } = await setup(total, { gate: (s) => s.inFlight + s.completed >= total });
    await collectRollouts({ environment: agent.environment, input: run.input, output: run.output });
    assert.equal(agent.stats.maxInFlight, total);
  });

  it('routes failures to the sidecar, and --resume retries them without duplicating a row', async () => {
    const failing = new Set(['1:0', '2:1']);
    const { agent, run } = await setup(3, {
      run: (body) => {
        if (failing.has(`${body._ng_task_index}:${body._ng_rollout_index}`) && body._ng_attempt_index === undefined) throw new Error('boom');
        return { reward: 1, attempt: body._ng_attempt_index ?? 0 };
      },
    });
    const first = await collectRollouts({ environment: agent.environment, input: run.input, output: run.output, numRepeats: 2, maxAttempts: 3 });
    assert.equal(first.failed, 2);
    assert.equal(first.incomplete, 2);
    const failures = readRows(first.paths.failures);
    assert.deepEqual(keysOf(failures), ['1:0', '2:1']);
    assert.equal((failures[0]!['error'] as { status: number }).status, 500);
    assert.equal((failures[0]!['error'] as { code: string }).code, 'GYM_ROLLOUT_RUN_STATUS');
    assert.equal(failures[0]!['_ng_attempt_index'], 0);
    const second = await collectRollouts({ environment: agent.environment, output: run.output, resume: true, maxAttempts: 3 });
    assert.equal(second.plan.pending, 2);
    assert.equal(second.incomplete, 0);
    const rows = readRows(run.output);
    assert.deepEqual(keysOf(rows), allKeys(3, 2));
    assert.equal(rows.filter((r) => r['attempt'] === 1).length, 2);
    assert.equal(readRows(first.paths.failures).length, 2);
  });

  it('never retries a row the agent refused (400, 422): the same row can only be refused again', async () => {
    const { agent, run } = await setup(2, {
      run: (body) => {
        if (body._ng_task_index === 0) throw new GymHttpRequestError(422, [{ loc: ['body', 'responses_create_params', 'input'], msg: 'Field required', type: 'missing' }]);
        if (body._ng_attempt_index === undefined) throw new Error('a transient failure');
        return { reward: 1 };
      },
    });
    const options = { environment: agent.environment, input: run.input, output: run.output, maxAttempts: 3 };
    const first = await collectRollouts(options);
    // the refused row is done (nothing would run it again); only the transient failure is left
    assert.equal(first.incomplete, 1);
    const refused = readRows(first.paths.failures).find((r) => r['_ng_task_index'] === 0)!;
    assert.equal((refused['error'] as { status: number }).status, 422);
    assert.equal(refused['_ng_failure_terminal'], true);
    const transient = readRows(first.paths.failures).find((r) => r['_ng_task_index'] === 1)!;
    assert.equal(transient['_ng_failure_terminal'], undefined);
    const second = await collectRollouts({ ...options, resume: true });
    assert.deepEqual({ pending: second.plan.pending, terminal: second.plan.terminal }, { pending: 1, terminal: 1 });
  });

  it('stops retrying at the attempt limit and never retries terminal failures', async () => {
    const { agent, run } = await setup(2, {
      run: (body) => {
        if (body._ng_task_index === 0) throw new Error('always');
        return { reward: 0, _ng_failure_class: 'skipped', _ng_failure_terminal: true };
      },
    });
    const options = { environment: agent.environment, input: run.input, output: run.output, maxAttempts: 2 };
    await collectRollouts(options);
    const classRow = readRows(run.output.replace('.jsonl', '_failures.jsonl')).find((r) => r['_ng_task_index'] === 1)!;
    assert.equal((classRow['error'] as { code: string }).code, 'GYM_ROLLOUT_FAILURE_CLASS');
    await collectRollouts({ ...options, resume: true });
    const third = await collectRollouts({ ...options, resume: true });
    assert.deepEqual({ pending: third.plan.pending, exhausted: third.plan.exhausted, terminal: third.plan.terminal }, { pending: 0, exhausted: 1, terminal: 1 });
    assert.equal(third.incomplete, 1);
    assert.equal(agent.stats.requests, 3);
    assert.equal(existsSync(third.paths.aggregateMetrics), false);
  });

  it('stops dispatching on the stop signal, keeps finished rows, and --resume completes the run', async () => {
    const stop = new AbortController();
    let agent: TestAgent | undefined;
    const setupResult = await setup(6, {
      run: (body) => {
        if (agent!.stats.requests === 2) stop.abort();
        return { reward: 1, t: body._ng_task_index };
      },
    });
    agent = setupResult.agent;
    const { run } = setupResult;
    const first = await collectRollouts({ environment: agent.environment, input: run.input, output: run.output, concurrency: 1, stopSignal: stop.signal });
    assert.equal(first.interrupted, true);
    assert.equal(first.succeeded, 2);
    assert.equal(first.incomplete, 4);
    const second = await collectRollouts({ environment: agent.environment, output: run.output, resume: true });
    assert.equal(second.succeeded, 4);
    assert.deepEqual(keysOf(readRows(run.output)), allKeys(6, 1));
  });

  it('says that --resume does not read --input again', async () => {
    const { agent, run } = await setup(2, { run: () => ({ reward: 1 }) });
    await collectRollouts({ environment: agent.environment, input: run.input, output: run.output });
    const warnings: string[] = [];
    await collectRollouts({ environment: agent.environment, input: run.input, output: run.output, resume: true, onWarning: (w) => warnings.push(w) });
    assert.equal(warnings.filter((w) => w.includes(`--input ${run.input} is not read again`)).length, 1, warnings.join('\n'));
  });

  it('replaces the files of an earlier run without --resume', async () => {
    const { agent, run } = await setup(2);
    await collectRollouts({ environment: agent.environment, input: run.input, output: run.output });
    await collectRollouts({ environment: agent.environment, input: run.input, output: run.output });
    assert.equal(readRows(run.output).length, 2);
  });

  it('merges the agent metrics answer, and keeps local metrics with a warning when the call fails', async () => {
    const { agent, run } = await setup(1, { aggregate: () => ({ agent_metrics: { 'server/x': 7 }, key_metrics: { 'server/x': 7 }, group_level_metrics: [] }) });
    const result = await collectRollouts({ environment: agent.environment, input: run.input, output: run.output });
    assert.deepEqual(result.metrics![0]!.key_metrics, { 'server/x': 7 });
    assert.equal(result.metrics![0]!.agent_metrics['mean/reward'], 1);
    const broken = await setup(1, {
      aggregate: () => {
        throw new Error('nope');
      },
    });
    const warnings: string[] = [];
    const second = await collectRollouts({ environment: broken.agent.environment, input: broken.run.input, output: broken.run.output, onWarning: (w) => warnings.push(w) });
    assert.equal(second.metrics![0]!.agent_metrics['mean/reward'], 1);
    assert.match(warnings.join('\n'), /GYM_ROLLOUT_W002/);
  });

  it('warns about malformed input lines with their numbers, or fails under strict input', async () => {
    const { agent, run } = await setup(0);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(run.input, '{"responses_create_params":{}}\n{oops\n{"responses_create_params":{}}\n');
    const warnings: string[] = [];
    const result = await collectRollouts({ environment: agent.environment, input: run.input, output: run.output, onWarning: (w) => warnings.push(w) });
    assert.equal(result.total, 2);
    assert.match(warnings.join('\n'), /GYM_ROLLOUT_W001: skipped 1 malformed line\(s\) .*line 2: not valid JSON/);
    await assert.rejects(collectRollouts({ environment: agent.environment, input: run.input, output: run.output, strictInput: true }), { code: 'GYM_ROLLOUT_INPUT_MALFORMED' });
  });

  it("warns once per dataset output_regex that cannot run with Python's semantics, naming the construct and its rows", async () => {
    const { agent, run } = await setup(0);
    const { writeFileSync } = await import('node:fs');
    const row = (pattern: unknown) => JSON.stringify({ responses_create_params: { input: 'q' }, template_metadata: { output_regex: pattern } });
    writeFileSync(run.input, [row('(a)(?(1)b|c)'), row(['Answer: ([A-D])', '(a)(?(1)b|c)']), row('(?P<x>a)(?P=x)'), row('Answer: ([A-D])'), row('([')].join('\n') + '\n');
    const warnings: string[] = [];
    await collectRollouts({ environment: agent.environment, input: run.input, output: run.output, onWarning: (w) => warnings.push(w) });
    assert.deepEqual(
      warnings.filter((w) => w.startsWith('GYM_ROLLOUT_W005')),
      [
        `GYM_ROLLOUT_W005: output_regex "(a)(?(1)b|c)" of 2 row(s): a conditional group (?(…)…); a grader running it with Python's semantics fails those rows' /verify`,
        `GYM_ROLLOUT_W005: output_regex "(?P<x>a)(?P=x)" of 1 row(s): a backreference under IGNORECASE; a grader running it with Python's semantics fails those rows' /verify`,
      ],
    );
  });

  it('puts an unparseable or too-deep input line into the failures sidecar with its line number, and runs the others', async () => {
    const { agent, run } = await setup(0);
    const { writeFileSync } = await import('node:fs');
    const deep = `{"responses_create_params":{"input":"hi"},"extra":${'['.repeat(2000)}${']'.repeat(2000)}}`;
    const row = (i: number) => `{"responses_create_params":{"input":"task ${i}"}}`;
    writeFileSync(run.input, `${row(1)}\n${deep}\n{oops\n{"responses_create_params":{"input":"x"},"x":{"__proto__":{"a":1}}}\n${row(5)}\n`);
    const result = await collectRollouts({ environment: agent.environment, input: run.input, output: run.output });
    assert.equal(result.succeeded, 2);
    const failures = readRows(result.paths.failures);
    assert.deepEqual(
      failures.map((f) => f['_ng_input_line']),
      [2, 3, 4],
    );
    assert.deepEqual(
      failures.map((f) => (f['error'] as { code: string }).code),
      ['GYM_ROLLOUT_INPUT_LINE', 'GYM_ROLLOUT_INPUT_LINE', 'GYM_ROLLOUT_INPUT_LINE'],
    );
    assert.match((failures[0]!['error'] as { message: string }).message, /line 2 .*nested deeper than 512 levels/);
    assert.match((failures[2]!['error'] as { message: string }).message, /__proto__/);
    // a resumed run neither repeats the input-line rows nor counts them as rollouts
    const resumed = await collectRollouts({ environment: agent.environment, output: run.output, resume: true });
    assert.equal(resumed.plan.pending, 0);
    assert.equal(readRows(result.paths.failures).length, 3);
  });
});
