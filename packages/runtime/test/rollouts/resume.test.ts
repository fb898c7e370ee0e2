import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { maxRolloutAttempts, planRollouts, rolloutHistory } from '../../src/rollouts/resume.js';
import { traceIdFromHeaders } from '../../src/rollouts/trace-id.js';
import type { MaterializedRow } from '../../src/rollouts/types.js';

const rows: MaterializedRow[] = [0, 1, 2, 3].map((t) => ({ _ng_task_index: t, _ng_rollout_index: 0, agent_ref: { name: 'ag' }, responses_create_params: {} }));
const key = (t: number) => ({ _ng_task_index: t, _ng_rollout_index: 0 });

describe('planRollouts', () => {
  it('skips succeeded and terminal pairs, retries the rest with their attempt index, and gives up at the limit', () => {
    const history = rolloutHistory([key(0)], [key(1), { ...key(2), _ng_failure_terminal: true }, key(3), key(3)]);
    const plan = planRollouts(rows, history, 2);
    assert.deepEqual(
      plan.pending.map((r) => [r._ng_task_index, r._ng_attempt_index]),
      [[1, 1]],
    );
    assert.equal(plan.succeeded, 1);
    assert.equal(plan.terminal, 1);
    assert.equal(plan.exhausted, 1);
  });

  it('dispatches everything without history, without an attempt index', () => {
    const plan = planRollouts(rows, rolloutHistory([], []), 3);
    assert.equal(plan.pending.length, 4);
    assert.equal(plan.pending[0]!._ng_attempt_index, undefined);
  });

  it('reads NEMO_GYM_MAX_ROLLOUT_ATTEMPTS and falls back to 3 on bad values', () => {
    assert.equal(maxRolloutAttempts({ NEMO_GYM_MAX_ROLLOUT_ATTEMPTS: '5' }), 5);
    assert.equal(maxRolloutAttempts({ NEMO_GYM_MAX_ROLLOUT_ATTEMPTS: '0' }), 3);
    assert.equal(maxRolloutAttempts({}), 3);
  });
});

describe('traceIdFromHeaders', () => {
  const id = '4bf92f3577b34da6a3ce929d0e0e4736';
  it('prefers x-gym-trace-id, then traceresponse, then traceparent', () => {
    assert.equal(traceIdFromHeaders({ 'x-gym-trace-id': id.toUpperCase() }), id);
    assert.equal(traceIdFromHeaders({ traceresponse: `00-${id}-00f067aa0ba902b7-01` }), id);
    assert.equal(traceIdFromHeaders({ traceparent: `00-${id}-00f067aa0ba902b7-01` }), id);
  });
  it('returns undefined when absent or invalid', () => {
    assert.equal(traceIdFromHeaders({}), undefined);
    assert.equal(traceIdFromHeaders({ 'x-gym-trace-id': 'nope', traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` }), undefined);
  });
});
