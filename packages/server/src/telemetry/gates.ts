/**
 * gym's span groups and their gates. The gates are gym's own objects, so call sites never touch
 * lens: each reads `GATES.<group>.enabled` (one field load) before doing anything else. They are
 * all false until `initTelemetry` binds them to lens, which owns the enabled set and keeps every
 * bound gate current from then on (a span-group change after start-up reaches them); they stay
 * false when telemetry is off or lens is not installed.
 * @module
 */
import type { SpanGroup } from '@gym/lens';

/** The namespace gym registers its groups under. */
export const GYM_NAMESPACE = 'gym';

/** gym's span groups (docs/observability/span-groups.md). */
export const GYM_SPAN_GROUPS = ['job', 'server', 'http_client', 'rollout', 'agent', 'model_call', 'verify', 'sandbox', 'startup'] as const;
export type GymSpanGroup = (typeof GYM_SPAN_GROUPS)[number];

/** The cross-process spine every preset includes: without it traces do not join across processes. */
const SPINE: GymSpanGroup[] = ['server', 'http_client', 'rollout'];

/**
 * gym's presets (docs/observability/span-groups.md, "Presets"); `all` is lens's wildcard over every registered group. `default` draws the
 * documented tree — the spine plus `model_call` and `verify`, which the original's code leaves out
 * of `default` while its docs show them (docs/decisions.md).
 */
export const GYM_PRESETS: Readonly<Record<string, readonly GymSpanGroup[]>> = {
  default: ['job', ...SPINE, 'model_call', 'verify', 'startup'],
  per_rollout: [...SPINE, 'verify', 'agent', 'model_call'],
};

/**
 * One gate: the readable half of lens's span-group gate. lens's own `SpanGroup` objects cannot be
 * made here, since lens loads only once telemetry is on; lens binds these instead. All come from
 * one object literal, so they share one shape and every gate read is monomorphic.
 */
export type Gate = Pick<SpanGroup, 'enabled'>;

/** The gate of every gym span group. */
export const GATES: Readonly<Record<GymSpanGroup, Gate>> = Object.fromEntries(GYM_SPAN_GROUPS.map((g) => [g, { enabled: false }])) as Record<GymSpanGroup, Gate>;

/** Binds every gate to lens (which keeps it current); returns the function that unbinds them all. */
export function bindGates(bind: (group: string, gate: Gate) => () => void): () => void {
  const unbind = GYM_SPAN_GROUPS.map((group) => bind(group, GATES[group]));
  return () => {
    for (const release of unbind) release();
  };
}
