/**
 * `ng_perf`: a rollout's performance summary, over the calls and tools its invocations own.
 * @module
 */
import type { PerfSummary, TrajectoryRecord } from '@gym/server/internal/evidence/observations.js';

/** The summary of a joined trajectory, or undefined when it has no invocation. */
export function perfSummary(trajectory: TrajectoryRecord): PerfSummary | undefined {
  if (trajectory.invocations.length === 0) return undefined;
  const owned = trajectory.model_calls.filter((c) => c.invocation_id !== null);
  const numTurns = trajectory.turns.length > 0 ? trajectory.turns.length : owned.length > 0 ? owned.length : trajectory.invocations.length;
  const observed = (values: (number | null)[]): number | null => {
    const known = values.filter((v): v is number => v !== null);
    return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
  };
  const durations = trajectory.invocations.map((i) => (typeof i.duration_ms === 'number' ? i.duration_ms : null));
  return {
    num_turns: numTurns,
    num_tool_calls: trajectory.tool_calls.length,
    token_observability_coverage: numTurns === 0 ? 0 : Math.min(1, owned.filter((c) => c.token_stats.total_tokens !== null).length / numTurns),
    prompt_tokens: observed(owned.map((c) => c.token_stats.prompt_tokens)),
    completion_tokens: observed(owned.map((c) => c.token_stats.completion_tokens)),
    total_latency_ms: durations.every((d) => d !== null) ? durations.reduce((a, b) => a + b, 0) : observed(owned.map((c) => c.duration_ms)),
  };
}
