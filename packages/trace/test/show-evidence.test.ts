// `gym trace show --evidence`: a rollout's captured calls, tool calls, gaps and health verdict
// under its span tree, joined by rollout id: never by trace id, which rows of a run whose rollouts
// share one trace (the `default` preset before one trace per rollout) all carry.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { show } from '../src/commands/show.js';
import { capture } from './support/capture.js';
import { evidenceRow, HOSTILE } from './support/evidence-rows.js';
import { nextId, rolloutSpans, writeRunLogs } from './support/fixtures.js';

const cleanups: (() => void)[] = [];
after(() => {
  for (const c of cleanups) c();
});

function setup() {
  const traceId = nextId(16);
  // two rollouts in one trace, as the `default` preset wrote them before; 2-0 has no evidence
  const logs = writeRunLogs([...rolloutSpans({ rolloutId: '0-0', traceId, atMs: 0 }), ...rolloutSpans({ rolloutId: '1-0', traceId, atMs: 500 }), ...rolloutSpans({ rolloutId: '2-0', atMs: 900 })]);
  cleanups.push(logs.cleanup);
  const rollouts = logs.path('run.jsonl');
  // both rows name the shared trace; the later row must not stand for the earlier rollout
  writeFileSync(rollouts, `${JSON.stringify(evidenceRow('0-0', traceId))}\n${JSON.stringify({ ...evidenceRow('1-0', traceId), _ng_task_index: 1 })}\n`);
  writeFileSync(
    logs.path('run_rollout_verdicts.jsonl'),
    `${JSON.stringify({ rollout_id: '0-0', verdict: 'unhealthy', findings: [{ check: 'rollout_ended_on_failed_model_call', locator: 'model_call:c2', detail: 'the last model call failed' }], unobserved: [] })}\n`,
  );
  return { logs, rollouts };
}

describe('gym trace show --evidence', () => {
  it('prints the evidence under the span tree: items, tokens, finish reason, tools, gaps, verdict', async () => {
    const { logs, rollouts } = setup();
    const c = capture();
    assert.equal(await show({ paths: [logs.dir], rollout: '0-0', evidence: [rollouts] }, c), 0, c.err);
    const [tree, evidence] = c.out.split('── evidence of rollout 0-0 ──');
    assert.match(tree!, /gym\.rollout/);
    assert.ok(evidence !== undefined, c.out);
    assert.match(evidence, /health: unhealthy\n {2}! rollout_ended_on_failed_model_call at model_call:c2/);
    assert.match(evidence, /\[1\] policy-7b {2}status 200 {2}finish tool_calls {2}tokens in 45 \/ out 4/);
    assert.match(evidence, /user: weather in sf\?/);
    assert.match(evidence, /function_call get_weather\(\{"city":"sf"\}\)/);
    assert.match(evidence, /\[2\] policy-7b {2}FAILED 502 server_error {2}finish \? {2}tokens in \? \/ out \?/);
    assert.match(evidence, /error: upstream 502/);
    assert.match(evidence, /get_weather call_1 {2}completed/);
    assert.ok(evidence.includes(`result: ${HOSTILE}`));
    assert.match(evidence, /gaps: 1\n {2}model_call_capture_incomplete \(0-0:simple_agent\): call 3 failed/);
  });

  it('shows each rollout its own evidence when rollouts share a trace id', async () => {
    const { logs, rollouts } = setup();
    for (const id of ['0-0', '1-0']) {
      const c = capture();
      assert.equal(await show({ paths: [logs.dir], rollout: id, evidence: [rollouts] }, c), 0, c.err);
      assert.match(c.out, new RegExp(`── evidence of rollout ${id} ──`));
      assert.equal(c.out.match(/── evidence of rollout/g)?.length, 1);
    }
  });

  it('wraps the evidence to the terminal width, as the tree above it', async () => {
    const { logs, rollouts } = setup();
    const c = capture();
    assert.equal(await show({ paths: [logs.dir], rollout: '0-0', evidence: [rollouts], width: 80 }, c), 0, c.err);
    const evidence = c.out.split('── evidence of rollout 0-0 ──')[1]!;
    // a line stays longer only where one word is (a JSON argument has no space to break at)
    for (const line of evidence.split('\n')) assert.ok(line.length <= 80 || !line.trim().includes(' '), line);
    assert.match(evidence, /user: weather in sf\?/);
  });

  it('says so when a rollout has no evidence, and carries it in JSON', async () => {
    const { logs, rollouts } = setup();
    const c = capture();
    await show({ paths: [logs.dir], rollout: '2-0', evidence: [rollouts] }, c);
    assert.match(c.out, /no rollout evidence for this rollout/);
    const j = capture();
    await show({ paths: [logs.dir], rollout: '0-0', evidence: [rollouts], format: 'json' }, j);
    const view = JSON.parse(j.out).views[0];
    assert.equal(view.evidence.rolloutId, '0-0');
    assert.equal(view.evidence.calls.length, 2);
    assert.equal(view.evidence.verdict.verdict, 'unhealthy');
  });

  it('a rollouts file that cannot be read is a clear error (exit 2)', async () => {
    const { logs } = setup();
    const c = capture();
    assert.equal(await show({ paths: [logs.dir], rollout: '0-0', evidence: [logs.path('missing.jsonl')] }, c), 2);
    assert.match(c.err, /Cannot read rollouts file .*missing\.jsonl \(--evidence\)/);
  });
});
