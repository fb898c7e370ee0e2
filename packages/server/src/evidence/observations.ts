/**
 * The shapes of rollout evidence, as they appear in rollout rows (snake_case, schema of the
 * original): what an agent observed (`ng_agent_observations`), the captured calls
 * (`ng_model_call_capture`), the joined trajectory (`ng_trajectory`, schema 1.0) and `ng_perf`.
 * A `null` count means "unknown", never zero.
 * @module
 */

/** Names one model call: by the server-minted id, or by the model server and the response id. */
export interface ModelCallRef {
  model_call_id?: string | null;
  model_ref?: { type: string; name: string } | null;
  response_id?: string | null;
}

/** One agent run (`kind: agent_invocation`). */
export interface AgentInvocation {
  kind: 'agent_invocation';
  invocation_id: string;
  parent_invocation_id?: string | null;
  status: 'completed' | 'failed' | 'incomplete' | 'unknown';
  duration_ms?: number | null;
  error_type?: string | null;
  model_calls: ModelCallRef[];
}

/** One tool call as the agent timed it (`kind: tool_call`). */
export interface ToolCallObservation {
  kind: 'tool_call';
  invocation_id: string;
  tool_call_id: string;
  tool_name?: string | null;
  started_at?: number | null;
  completed_at?: number | null;
  duration_ms?: number | null;
  timing_source: 'executor' | 'artifact' | 'harness';
  status: 'completed' | 'failed' | 'timeout' | 'cancelled' | 'incomplete' | 'unknown';
  error_type?: string | null;
  /** Arguments as the model sent them (a JSON string for function calls). */
  arguments?: unknown;
  /** What the tool answered (what the model saw next). */
  output?: unknown;
}

/** One semantic turn of an invocation, as the producer defines it. */
export interface TrajectoryTurn {
  invocation_id: string;
  task_id: string;
  rollout_id: string;
  turn_no: number;
  timestamp?: number | null;
  question?: string | null;
  answer?: string | null;
  reasoning_content?: string | null;
  resolved?: boolean | null;
  step_count: number;
  model_calls: ModelCallRef[];
}

/** Something the evidence could not establish. */
export interface ObservationGap {
  code: string;
  invocation_id?: string | null;
  detail?: string | null;
}

/** What an agent reports about one rollout (`ng_agent_observations`). Records are unordered. */
export interface AgentObservationBundle {
  source: string;
  records: (AgentInvocation | ToolCallObservation)[];
  turns?: TrajectoryTurn[];
  gaps: ObservationGap[];
}

/** Token counts of one call; `null` = not reported. */
export interface TokenStats {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  reasoning_tokens: number | null;
  total_tokens: number | null;
  cached_tokens: number | null;
}

/** Token counts and latency of one call, or summed over a rollout's calls; `null` = unknown. */
export interface CallTotals {
  tokens_in: number | null;
  tokens_out: number | null;
  tokens_reasoning: number | null;
  tokens_total: number | null;
  cached_tokens: number | null;
  latency_total_ms: number | null;
}

/** One captured call, normalised (`ng_model_call_capture.calls[]`). */
export interface ModelCallRecord extends CallTotals {
  model_call_id: string | null;
  response_id: string | null;
  call_index: number;
  model_ref: { type: string; name: string } | null;
  model: string | null;
  dialect: string | null;
  status_code: number | null;
  response_status: string | null;
  finish_reason: string | null;
  error_category: string | null;
  started_at: number | null;
  completed_at: number | null;
  trace_id: string | null;
  span_id: string | null;
  /** Present until the trajectory holds the payloads. */
  request?: unknown;
  response?: unknown;
}

/** `ng_model_call_capture` of a row. */
export interface ModelCallCaptureAttachment {
  rollout_id: string;
  metrics: CallTotals & { num_calls: number };
  calls: ModelCallRecord[];
  gaps?: ObservationGap[];
}

/** A captured call inside the trajectory: payloads and metadata. */
export interface TrajectoryModelCall {
  model_call_id: string;
  started_at: number | null;
  completed_at: number | null;
  duration_ms: number | null;
  request: unknown;
  response: unknown;
  response_metadata: {
    response_id: string | null;
    model_ref: { type: string; name: string } | null;
    model: string | null;
    dialect: string | null;
    status_code: number | null;
    response_status: string | null;
    finish_reason: string | null;
    error_category: string | null;
    latency_ttft_ms: number | null;
  };
  token_stats: TokenStats;
  /** The invocation that owns it, when a reference proved it. */
  invocation_id: string | null;
  trace_id: string | null;
  span_id: string | null;
}

/** `ng_trajectory`: the canonical join of agent observations and captured calls. */
export interface TrajectoryRecord {
  schema_version: '1.0';
  task_id: string;
  rollout_id: string;
  invocations: (AgentInvocation & { model_calls: ModelCallRef[] })[];
  turns: TrajectoryTurn[];
  model_calls: TrajectoryModelCall[];
  tool_calls: ToolCallObservation[];
  gaps: ObservationGap[];
}

/** `ng_perf`: a per-rollout performance summary. */
export interface PerfSummary {
  num_turns: number;
  num_tool_calls: number;
  token_observability_coverage: number;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_latency_ms: number | null;
}
