/**
 * A {@link TraceScope} is a lens context, opaque outside telemetry: the one place that says so,
 * both ways.
 * @module
 */
import type { Context } from '@opentelemetry/api';
import type { TraceScope } from '../http/instrumentation.js';
import type { GymTelemetry } from './state.js';

/** The context `scope` stands for; without one, the current context. */
export function contextOf(telemetry: GymTelemetry, scope: TraceScope | undefined): Context {
  return (scope as unknown as Context | undefined) ?? telemetry.api.context.active();
}

/** `context`, handed out as a trace scope. */
export function scopeOf(context: Context): TraceScope {
  return context as unknown as TraceScope;
}
