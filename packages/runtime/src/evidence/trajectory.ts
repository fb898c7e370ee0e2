/**
 * `ng_trajectory` (schema 1.0): the join of what the agent observed with what the model servers
 * captured. A reference owns a captured call only through the call id (consistent with any model
 * server / response id it also gives) or the exact (model server type, name, response id) triple;
 * time stamps and list order never decide ownership. What the join cannot establish is recorded
 * as a gap, never guessed: unmatched, ambiguous and conflicting references, captured calls no
 * invocation claims, turns the producer did not supply.
 * @module
 */
import type {
  AgentInvocation,
  AgentObservationBundle,
  ModelCallRecord,
  ModelCallRef,
  ObservationGap,
  ToolCallObservation,
  TrajectoryModelCall,
  TrajectoryRecord,
  TrajectoryTurn,
} from '@gym/server/internal/evidence/observations.js';

/** Inputs of {@link joinTrajectory}. */
export interface TrajectoryInputs {
  taskId: string;
  rolloutId: string;
  /** The agent's `ng_agent_observations`, when it reported any. */
  observations: AgentObservationBundle | undefined;
  /** Captured calls, payloads included. */
  calls: readonly ModelCallRecord[];
  /** Gaps of the capture itself (missing file, unreadable lines). */
  captureGaps?: readonly ObservationGap[];
}

const sameRef = (a: ModelCallRef['model_ref'], b: ModelCallRecord['model_ref']): boolean => a == null || (b !== null && a.type === b.type && a.name === b.name);

/** The captured calls a reference can name. */
export function candidatesFor(ref: ModelCallRef, calls: readonly ModelCallRecord[]): ModelCallRecord[] {
  if (typeof ref.model_call_id === 'string' && ref.model_call_id !== '') {
    return calls.filter((c) => c.model_call_id === ref.model_call_id && sameRef(ref.model_ref, c.model_ref) && (ref.response_id == null || ref.response_id === c.response_id));
  }
  if (ref.model_ref != null && typeof ref.response_id === 'string') {
    return calls.filter((c) => c.response_id === ref.response_id && c.model_ref !== null && c.model_ref.type === ref.model_ref!.type && c.model_ref.name === ref.model_ref!.name);
  }
  return [];
}

function describe(ref: ModelCallRef): string {
  if (typeof ref.model_call_id === 'string' && ref.model_call_id !== '') return `model_call_id=${ref.model_call_id}`;
  return `model_ref=${ref.model_ref ? `${ref.model_ref.type}/${ref.model_ref.name}` : 'none'},response_id=${ref.response_id ?? 'none'}`;
}

const canonical = (c: ModelCallRecord): ModelCallRef => ({ model_call_id: c.model_call_id, model_ref: c.model_ref, response_id: c.response_id });

/** Joins observations and captured calls. Throws only on records it cannot read (the caller records `trajectory_projection_failed`). */
export function joinTrajectory(inputs: TrajectoryInputs): TrajectoryRecord {
  const { calls } = inputs;
  const records = inputs.observations?.records ?? [];
  const gaps: ObservationGap[] = [...(inputs.observations?.gaps ?? []), ...(inputs.captureGaps ?? [])];
  const owner = new Map<ModelCallRecord, string>();
  const seen = new Set<string>();
  const invocations: AgentInvocation[] = [];
  for (const record of records) {
    if (record.kind !== 'agent_invocation') continue;
    if (typeof record.invocation_id !== 'string' || seen.has(record.invocation_id)) throw new Error(`invocation ids must be unique strings, got ${JSON.stringify(record.invocation_id)}`);
    seen.add(record.invocation_id);
    const refs: ModelCallRef[] = [];
    for (const ref of record.model_calls ?? []) {
      const found = candidatesFor(ref, calls);
      if (found.length === 0) {
        gaps.push({ code: 'model_call_reference_unmatched', invocation_id: record.invocation_id, detail: describe(ref) });
        refs.push(ref);
      } else if (found.length > 1) {
        gaps.push({ code: 'model_call_reference_ambiguous', invocation_id: record.invocation_id, detail: `${describe(ref)} names ${found.length} captured calls` });
        refs.push(ref);
      } else {
        const call = found[0]!;
        const current = owner.get(call);
        if (current !== undefined && current !== record.invocation_id) {
          gaps.push({ code: 'model_call_reference_conflict', invocation_id: record.invocation_id, detail: `${describe(ref)} is owned by ${current}` });
          refs.push(ref);
        } else {
          owner.set(call, record.invocation_id);
          refs.push(canonical(call));
        }
      }
    }
    invocations.push({ ...record, model_calls: refs });
  }
  for (const call of calls) {
    if (!owner.has(call)) gaps.push({ code: 'model_call_ownership_unavailable', detail: `capture:${call.model_call_id ?? 'unknown'}:call_index=${call.call_index}` });
  }
  const turns = (inputs.observations?.turns ?? []).map((turn) => resolveTurn(turn, inputs, calls, owner, gaps));
  if (turns.length === 0) gaps.push({ code: 'turns_unavailable', detail: 'the agent reported no turns' });
  const toolCalls = records.filter((r): r is ToolCallObservation => r.kind === 'tool_call');
  return {
    schema_version: '1.0',
    task_id: inputs.taskId,
    rollout_id: inputs.rolloutId,
    invocations,
    turns,
    model_calls: calls.map((c) => trajectoryCall(c, owner.get(c) ?? null)),
    tool_calls: toolCalls,
    gaps: dedupe(gaps),
  };
}

function resolveTurn(turn: TrajectoryTurn, inputs: TrajectoryInputs, calls: readonly ModelCallRecord[], owner: Map<ModelCallRecord, string>, gaps: ObservationGap[]): TrajectoryTurn {
  if (turn.task_id !== inputs.taskId || turn.rollout_id !== inputs.rolloutId) throw new Error(`turn ${turn.turn_no} of ${turn.invocation_id} names another task or rollout`);
  const refs = (turn.model_calls ?? []).map((ref) => {
    const found = candidatesFor(ref, calls);
    if (found.length === 1 && owner.get(found[0]!) === turn.invocation_id) return canonical(found[0]!);
    gaps.push({ code: 'turn_model_call_scope_incomplete', invocation_id: turn.invocation_id, detail: `turn ${turn.turn_no}: ${describe(ref)}` });
    return ref;
  });
  return { ...turn, model_calls: refs };
}

function trajectoryCall(c: ModelCallRecord, invocationId: string | null): TrajectoryModelCall {
  return {
    model_call_id: c.model_call_id ?? '',
    started_at: c.started_at,
    completed_at: c.completed_at,
    duration_ms: c.latency_total_ms,
    request: c.request ?? null,
    response: c.response ?? null,
    response_metadata: {
      response_id: c.response_id,
      model_ref: c.model_ref,
      model: c.model,
      dialect: c.dialect,
      status_code: c.status_code,
      response_status: c.response_status,
      finish_reason: c.finish_reason,
      error_category: c.error_category,
      latency_ttft_ms: null,
    },
    token_stats: { prompt_tokens: c.tokens_in, completion_tokens: c.tokens_out, reasoning_tokens: c.tokens_reasoning, total_tokens: c.tokens_total, cached_tokens: c.cached_tokens },
    invocation_id: invocationId,
    trace_id: c.trace_id,
    span_id: c.span_id,
  };
}

/** Gaps without repeats of the same (code, invocation, detail). */
export function dedupe(gaps: readonly ObservationGap[]): ObservationGap[] {
  const seen = new Set<string>();
  return gaps.filter((g) => {
    const key = JSON.stringify([g.code, g.invocation_id ?? null, g.detail ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
