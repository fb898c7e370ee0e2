/**
 * The orchestrator's side of the telemetry settings: it resolves them once (refusing bad values
 * before anything starts) and hands them to its servers as environment variables, set-if-absent
 * so hand-set variables win (docs/observability/configuration.md). Each server resolves the same
 * variables once (settings.ts). Imports nothing of lens.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { GymUserError } from '@gym/server/internal/errors.js';
import { MEMORY_PROFILING_ENV_FIELDS, resolveTelemetrySettings, TELEMETRY_ENV_FIELDS } from '@gym/server/internal/telemetry/settings.js';
import type { TelemetrySettings } from '@gym/server/internal/telemetry/settings.js';

type Env = Record<string, string | undefined>;
type Block = Readonly<Record<string, unknown>> | undefined;

/**
 * The effective settings of `block` under `env`. Throws one `GymUserError` (GYM_TELEMETRY_INVALID)
 * listing every bad value with where it came from and the valid values: the orchestrator refuses
 * to start on it.
 */
export function validateTelemetrySettings(block: Block, env: Env = process.env): TelemetrySettings {
  const { settings, problems } = resolveTelemetrySettings(block, env);
  if (problems.length > 0) {
    throw new GymUserError('GYM_TELEMETRY_INVALID', `Invalid telemetry settings:\n  - ${problems.join('\n  - ')}`);
  }
  return settings;
}

function render(value: unknown): string {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

/**
 * Writes `settings` into `env` (mutated) for the servers this process starts: the block's fields
 * set-if-absent, and one run id for the whole run. A disabled run writes nothing at all. Returns
 * the settings of this process with that run id.
 */
export function applyTelemetryEnv(settings: TelemetrySettings, block: Block, env: Env): TelemetrySettings {
  if (!settings.enabled) return settings;
  const setIfAbsent = (name: string, value: string) => {
    if (!env[name]?.trim()) env[name] = value;
  };
  setIfAbsent(TELEMETRY_ENV_FIELDS['enabled']!, '1');
  for (const [field, name] of Object.entries(TELEMETRY_ENV_FIELDS)) {
    const value = block?.[field];
    if (field !== 'enabled' && value !== undefined && value !== null) setIfAbsent(name, render(value));
  }
  const memory = block?.['memory_profiling'];
  if (memory !== null && typeof memory === 'object' && !Array.isArray(memory)) {
    for (const [field, name] of Object.entries(MEMORY_PROFILING_ENV_FIELDS)) {
      const value = (memory as Record<string, unknown>)[field];
      if (value !== undefined && value !== null) setIfAbsent(name, render(value));
    }
  }
  setIfAbsent('OTEL_SERVICE_NAME', settings.serviceGroup);
  const runId = settings.runId ?? (env['SLURM_JOB_ID']?.trim() || randomUUID().replace(/-/g, '').slice(0, 12));
  env[TELEMETRY_ENV_FIELDS['run_id']!] = runId;
  return Object.freeze({ ...settings, runId });
}
