/**
 * `gym.job`: the span around a whole collection run (group `job`). Under `default` every rollout's
 * `/run` call descends from it, so a run is one trace; under `per_rollout` it does not exist and
 * each rollout is its own trace.
 * @module
 */
import type { TraceScope } from '../http/instrumentation.js';
import { SPAN } from './attributes.js';
import { GATES } from './gates.js';
import { inGymSpan } from './gym-span.js';
import type { GymTelemetry } from './state.js';

/** Runs `run` inside `gym.job` when telemetry is on and the `job` group enabled, giving it the span's scope. */
export function withJobSpan<T>(telemetry: GymTelemetry | undefined, run: (scope: TraceScope | undefined) => Promise<T>): Promise<T> {
  if (telemetry === undefined || !GATES.job.enabled) return run(undefined);
  return inGymSpan(telemetry, SPAN.JOB, (_span, scope) => run(scope));
}
