// The trajectory join never guesses ownership: unmatched, ambiguous and conflicting references
// and unclaimed captured calls become gaps; timestamps and order decide nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { captureAttachment } from '../../src/evidence/capture-records.js';
import { joinTrajectory } from '../../src/evidence/trajectory.js';
import type { AgentInvocation, AgentObservationBundle, ModelCallRef } from '../../../server/src/evidence/observations.js';

const POLICY = { type: 'responses_api_models', name: 'policy' };
const JUDGE = { type: 'responses_api_models', name: 'judge' };

function exchange(id: string, responseId: string, ref = POLICY, usage: Record<string, unknown> | null = { input_tokens: 5, output_tokens: 2, total_tokens: 7 }) {
  return {
    model_call_id: id,
    model_ref: ref,
    dialect: 'responses',
    status_code: 200,
    error_category: null,
    started_at: 1,
    completed_at: 2,
    latency_ms: 3,
    response: { id: responseId, status: 'completed', output: [], usage },
  };
}
function calls(...exchanges: Record<string, unknown>[]) {
  return captureAttachment('0-0', { exists: true, unreadable: 0, exchanges: exchanges.map((exchange, index) => ({ index, exchange })) }).calls;
}
function invocation(id: string, refs: ModelCallRef[]): AgentInvocation {
  return { kind: 'agent_invocation', invocation_id: id, status: 'completed', model_calls: refs };
}
function bundle(...records: AgentInvocation[]): AgentObservationBundle {
  return { source: 'test', records, gaps: [], turns: [] };
}
const codes = (gaps: { code: string }[]) => gaps.map((g) => g.code).sort();

describe('joinTrajectory', () => {
  it('owns a call named by its id, or by the exact model server and response id', () => {
    const captured = calls(exchange('a', 'resp_1'), exchange('b', 'resp_2'));
    const t = joinTrajectory({ taskId: '0', rolloutId: '0-0', observations: bundle(invocation('inv', [{ model_call_id: 'a' }, { model_ref: POLICY, response_id: 'resp_2' }])), calls: captured });
    assert.deepEqual(
      t.invocations[0]!.model_calls.map((r) => r.model_call_id),
      ['a', 'b'],
    );
    assert.deepEqual(
      t.model_calls.map((c) => c.invocation_id),
      ['inv', 'inv'],
    );
    assert.deepEqual(codes(t.gaps), ['turns_unavailable']);
  });

  it('records an unmatched reference, including an id whose model server disagrees', () => {
    const captured = calls(exchange('a', 'resp_1'));
    const t = joinTrajectory({ taskId: '0', rolloutId: '0-0', observations: bundle(invocation('inv', [{ model_call_id: 'a', model_ref: JUDGE }, { model_call_id: 'zzz' }])), calls: captured });
    assert.deepEqual(codes(t.gaps), ['model_call_ownership_unavailable', 'model_call_reference_unmatched', 'model_call_reference_unmatched', 'turns_unavailable']);
    assert.equal(t.model_calls[0]!.invocation_id, null);
    assert.ok(t.gaps.some((g) => g.detail === 'capture:a:call_index=0'));
  });

  it('records an ambiguous reference: two captured calls share the model server and response id', () => {
    const captured = calls(exchange('a', 'resp_same'), exchange('b', 'resp_same'));
    const t = joinTrajectory({ taskId: '0', rolloutId: '0-0', observations: bundle(invocation('inv', [{ model_ref: POLICY, response_id: 'resp_same' }])), calls: captured });
    assert.deepEqual(codes(t.gaps), ['model_call_ownership_unavailable', 'model_call_ownership_unavailable', 'model_call_reference_ambiguous', 'turns_unavailable']);
    assert.deepEqual(t.invocations[0]!.model_calls, [{ model_ref: POLICY, response_id: 'resp_same' }], 'the reference is kept as given');
  });

  it('records a conflict when a second invocation claims an owned call; the first keeps it', () => {
    const captured = calls(exchange('a', 'resp_1'));
    const t = joinTrajectory({ taskId: '0', rolloutId: '0-0', observations: bundle(invocation('first', [{ model_call_id: 'a' }]), invocation('second', [{ model_call_id: 'a' }])), calls: captured });
    assert.deepEqual(codes(t.gaps), ['model_call_reference_conflict', 'turns_unavailable']);
    const conflict = t.gaps.find((g) => g.code === 'model_call_reference_conflict')!;
    assert.equal(conflict.invocation_id, 'second');
    assert.equal(t.model_calls[0]!.invocation_id, 'first');
  });

  it('without agent observations every captured call is unowned, and nothing is inferred', () => {
    const captured = calls(exchange('a', 'resp_1'), exchange('b', 'resp_2'));
    const t = joinTrajectory({ taskId: '0', rolloutId: '0-0', observations: undefined, calls: captured });
    assert.deepEqual(t.invocations, []);
    assert.deepEqual(codes(t.gaps), ['model_call_ownership_unavailable', 'model_call_ownership_unavailable', 'turns_unavailable']);
  });

  it('refuses duplicate invocation ids (the caller records trajectory_projection_failed)', () => {
    assert.throws(() => joinTrajectory({ taskId: '0', rolloutId: '0-0', observations: bundle(invocation('x', []), invocation('x', [])), calls: [] }), /unique/);
  });

  it('keeps unknown token counts null in the totals, never zero', () => {
    const attachment = captureAttachment('0-0', {
      exists: true,
      unreadable: 1,
      exchanges: [
        { index: 0, exchange: exchange('a', 'r1') },
        { index: 2, exchange: exchange('b', 'r2', POLICY, null) },
      ],
    });
    assert.equal(attachment.metrics.tokens_total, null);
    assert.equal(attachment.metrics.num_calls, 2);
    assert.equal(attachment.calls[1]!.tokens_out, null);
    assert.deepEqual(codes(attachment.gaps ?? []), ['model_call_capture_records_unreadable']);
  });
});
