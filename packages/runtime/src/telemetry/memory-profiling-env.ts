/**
 * `telemetry.memory_profiling` as environment variables, named as the original names them
 * (nemo-gym-observability.md §2.1, §6.7): written by the orchestrator set-if-absent with the rest of
 * the `telemetry:` block, read back by the orchestrator when its servers are up. Gym-owned switches:
 * no `NEMO_LENS_*` fallback, a value outside the truthy set is off, an unusable interval is the
 * default. Imports nothing of lens.
 * @module
 */

/** `memory_profiling.enabled` (default off). */
export const MEMORY_PROFILING_ENABLED_ENV = 'NEMO_GYM_OTEL_MEMORY_PROFILING_ENABLED';
/** `memory_profiling.interval_seconds` (float > 0, default 1.0). */
export const MEMORY_PROFILING_INTERVAL_ENV = 'NEMO_GYM_OTEL_MEMORY_PROFILING_INTERVAL_SECONDS';
export const DEFAULT_MEMORY_PROFILING_INTERVAL_SECONDS = 1.0;

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);
const FALSY = new Set(['0', 'false', 'no', 'off']);

type Env = Record<string, string | undefined>;

/** The effective memory-profiling settings of a process. */
export interface MemoryProfilingSettings {
  /** On only when asked for, telemetry is on and this process exports metrics. */
  enabled: boolean;
  intervalMs: number;
}

/** The variables the `telemetry.memory_profiling` block sets (`[name, value]`, booleans as `1`/`0`). */
export function memoryProfilingEnvEntries(block: Record<string, unknown> | undefined): Array<[string, string]> {
  const section = block?.['memory_profiling'];
  if (section === null || typeof section !== 'object' || Array.isArray(section)) return [];
  const entries: Array<[string, string]> = [];
  const { enabled, interval_seconds: interval } = section as Record<string, unknown>;
  if (enabled !== undefined && enabled !== null) entries.push([MEMORY_PROFILING_ENABLED_ENV, typeof enabled === 'boolean' ? (enabled ? '1' : '0') : String(enabled)]);
  if (interval !== undefined && interval !== null) entries.push([MEMORY_PROFILING_INTERVAL_ENV, String(interval)]);
  return entries;
}

/**
 * Reads the settings from `env`. Memory profiling needs metrics: it is off when telemetry is off,
 * when `NEMO_GYM_OTEL_METRICS_ENABLED` (or `NEMO_LENS_METRICS_ENABLED`) is off, or with
 * `OTEL_SDK_DISABLED=true`.
 */
export function memoryProfilingSettings(env: Env = process.env): MemoryProfilingSettings {
  const flag = (value: string | undefined) => value !== undefined && TRUTHY.has(value.toLowerCase());
  const first = (...names: string[]) => names.map((name) => env[name]?.trim()).find((value) => value);
  const telemetryOn = flag(first('NEMO_GYM_OTEL_ENABLED', 'NEMO_LENS_ENABLED'));
  const metricsSetting = first('NEMO_GYM_OTEL_METRICS_ENABLED', 'NEMO_LENS_METRICS_ENABLED')?.toLowerCase();
  const metricsOn = metricsSetting === undefined || !FALSY.has(metricsSetting);
  const sdkDisabled = env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true';
  const seconds = Number(env[MEMORY_PROFILING_INTERVAL_ENV]?.trim() || Number.NaN);
  return {
    enabled: flag(env[MEMORY_PROFILING_ENABLED_ENV]?.trim()) && telemetryOn && metricsOn && !sdkDisabled,
    intervalMs: Math.max(1, Math.round((Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_MEMORY_PROFILING_INTERVAL_SECONDS) * 1000)),
  };
}
