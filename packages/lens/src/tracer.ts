/**
 * Tracers and meters from the global providers (no-op ones until telemetry is set up).
 * @module
 */
import { metrics, trace } from '@opentelemetry/api';
import type { Meter, Tracer } from '@opentelemetry/api';

/** The instrumentation scope lens uses when the caller names none (as in nemo-lens). */
export const DEFAULT_SCOPE = 'nemo.lens';

/** A tracer from the global provider. Cheap: the API caches tracers by name and version. */
export function getTracer(name: string = DEFAULT_SCOPE, version?: string): Tracer {
  return trace.getTracer(name, version);
}

/** A meter from the global provider. */
export function getMeter(name: string = DEFAULT_SCOPE, version?: string): Meter {
  return metrics.getMeter(name, version);
}
