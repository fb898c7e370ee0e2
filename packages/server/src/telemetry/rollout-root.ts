/**
 * One rollout, one trace. The collector's calls carry no parent: each `/run` call starts a trace
 * of its own, so a backend holds bounded traces however long the run. Its first span names the run
 * (`gym.run.id`) and links to the job's span (`gym.job`), so the run's rollouts stay one group.
 * @module
 */
import type { Attributes, Context, Span, SpanContext } from '@opentelemetry/api';
import type { TraceScope } from '../http/instrumentation.js';
import { ATTR } from './attributes.js';
import { scopeOf } from './trace-scope.js';
import type { GymTelemetry } from './state.js';

// a context key is a symbol: one of our own, no telemetry object needed to read it
const ROLLOUT_ROOT_KEY = Symbol.for('gym.rollout.root');

/** What a call started in a rollout-root scope links to: the job's span, when there is one. */
interface RolloutRoot {
  readonly job: SpanContext | undefined;
}

/** The scope for the collector's calls: no parent span; the job's span (if any) to link to. */
export function rolloutRootScope(telemetry: GymTelemetry, job: SpanContext | undefined): TraceScope {
  const root: RolloutRoot = { job };
  return scopeOf(telemetry.api.ROOT_CONTEXT.setValue(ROLLOUT_ROOT_KEY, root));
}

/** What a call in `context` links to when it starts a rollout's trace; undefined for any other call. */
export function rolloutRootIn(context: Context): RolloutRoot | undefined {
  return context.getValue(ROLLOUT_ROOT_KEY) as RolloutRoot | undefined;
}

/** Marks `attributes` as those of a rollout's first span: the run it belongs to. */
export function addRunId(telemetry: GymTelemetry, attributes: Attributes): void {
  if (telemetry.runId !== '') attributes[ATTR.ROLLOUT_RUN_ID] = telemetry.runId;
}

/** Links a rollout's first span to the job's span, when the run has one. */
export function linkToJob(span: Span, root: RolloutRoot): void {
  if (root.job !== undefined) span.addLink({ context: root.job });
}
