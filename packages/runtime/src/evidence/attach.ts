/**
 * Folding a rollout's evidence into its row (success or failure): `ng_model_call_capture`,
 * `ng_trajectory` and `ng_perf`, next to the agent's `ng_agent_observations`. Additive: no key the
 * row had changes. Once the trajectory holds the payloads, the capture attachment drops them (they
 * stay in the capture file); if the join fails they stay and the gap says why.
 * @module
 */
import { captureAttachment } from './capture-records.js';
import { perfSummary } from './perf.js';
import { joinTrajectory } from './trajectory.js';
import type { CaptureStore } from '@gym/server/internal/evidence/capture-store.js';
import type { AgentObservationBundle } from '@gym/server/internal/evidence/observations.js';

/** Adds the evidence of `rolloutId` to `row` (in place) and returns it. Never throws. */
export function attachEvidence(row: Record<string, unknown>, store: CaptureStore, rolloutId: string): Record<string, unknown> {
  let capture;
  try {
    capture = captureAttachment(rolloutId, store.read(rolloutId));
  } catch (error) {
    row['ng_model_call_capture'] = {
      rollout_id: rolloutId,
      metrics: null,
      calls: [],
      gaps: [{ code: 'model_call_capture_unreadable', detail: error instanceof Error ? error.message : String(error) }],
    };
    return row;
  }
  const observations = isBundle(row['ng_agent_observations']) ? row['ng_agent_observations'] : undefined;
  const task = row['_ng_task_index'];
  try {
    const trajectory = joinTrajectory({ taskId: typeof task === 'number' ? String(task) : 'unknown', rolloutId, observations, calls: capture.calls, captureGaps: capture.gaps ?? [] });
    for (const call of capture.calls) {
      delete call.request;
      delete call.response;
    }
    row['ng_model_call_capture'] = capture;
    row['ng_trajectory'] = trajectory;
    const perf = perfSummary(trajectory);
    if (perf !== undefined) row['ng_perf'] = perf;
  } catch (error) {
    capture.gaps = [...(capture.gaps ?? []), { code: 'trajectory_projection_failed', detail: error instanceof Error ? error.message : String(error) }];
    row['ng_model_call_capture'] = capture;
  }
  return row;
}

function isBundle(value: unknown): value is AgentObservationBundle {
  return value !== null && typeof value === 'object' && Array.isArray((value as { records?: unknown }).records);
}
