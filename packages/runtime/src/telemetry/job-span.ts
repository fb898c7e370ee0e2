/**
 * `gym.job`: the span around a whole collection run (group `job`), a trace of its own. Each
 * rollout's `/run` call starts its own trace, linked to this span and carrying the run id (see
 * rollout-root.ts), so no trace grows with the run. Under `per_rollout` there is no `gym.job`; the
 * rollouts' traces still carry the run id.
 * @module
 */
import type { TraceScope } from '@gym/server/internal/http/instrumentation.js';
import { SPAN } from '@gym/server/internal/telemetry/attributes.js';
import { GATES } from '@gym/server/internal/telemetry/gates.js';
import { inGymSpan } from '@gym/server/internal/telemetry/gym-span.js';
import { rolloutRootScope } from '@gym/server/internal/telemetry/rollout-root.js';
import type { GymTelemetry } from '@gym/server/internal/telemetry/state.js';

/**
 * Runs `run` inside `gym.job` when telemetry is on and the `job` group enabled. `run` gets the
 * scope for the run's calls: each starts a trace, linked to the job's span.
 */
export function withJobSpan<T>(telemetry: GymTelemetry | undefined, run: (scope: TraceScope | undefined) => Promise<T>): Promise<T> {
  if (telemetry === undefined) return run(undefined);
  if (!GATES.job.enabled) return run(rolloutRootScope(telemetry, undefined));
  return inGymSpan(telemetry, SPAN.JOB, (span) => run(rolloutRootScope(telemetry, span.spanContext())));
}
