/**
 * Telemetry switches as environment variables: the cheap pre-check every process runs before it
 * loads anything, and the orchestrator's set-if-absent translation of the `telemetry:` block
 * (nemo-gym-observability.md §2.2–§2.3). Imports nothing of lens.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { GymUserError } from '../errors.js';
import { memoryProfilingEnvEntries } from './memory-profiling-env.js';

/** The primary prefix; `NEMO_LENS_*` is the fallback. */
export const GYM_OTEL_PREFIX = 'NEMO_GYM_OTEL';
export const LENS_PREFIX = 'NEMO_LENS';

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);
const FALSY = new Set(['0', 'false', 'no', 'off']);

type Env = Record<string, string | undefined>;

function firstNonEmpty(env: Env, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/**
 * The pre-check: `NEMO_GYM_OTEL_ENABLED`, else `NEMO_LENS_ENABLED`; the first non-empty one decides;
 * only `1/true/yes/on` enable. Costs a few string reads; loads nothing.
 */
export function isTelemetryEnvEnabled(env: Env = process.env): boolean {
  const value = firstNonEmpty(env, `${GYM_OTEL_PREFIX}_ENABLED`, `${LENS_PREFIX}_ENABLED`);
  return value !== undefined && TRUTHY.has(value.toLowerCase());
}

/** A gym-owned boolean flag (no lens fallback): unset → `fallback`, else truthy iff in the truthy set. */
export function gymFlag(env: Env, key: string, fallback: boolean): boolean {
  const value = env[`${GYM_OTEL_PREFIX}_${key}`]?.trim();
  return value ? TRUTHY.has(value.toLowerCase()) : fallback;
}

/** `telemetry:` block fields → the variable the orchestrator writes for each (set-if-absent). */
export const TELEMETRY_ENV_FIELDS: Readonly<Record<string, string>> = {
  enabled: `${GYM_OTEL_PREFIX}_ENABLED`,
  service_name: 'OTEL_SERVICE_NAME',
  service_name_per_server: `${GYM_OTEL_PREFIX}_SERVICE_NAME_PER_SERVER`,
  span_groups: `${GYM_OTEL_PREFIX}_SPAN_GROUPS`,
  exporter: `${GYM_OTEL_PREFIX}_EXPORTER`,
  traces_enabled: `${GYM_OTEL_PREFIX}_TRACES_ENABLED`,
  metrics_enabled: `${GYM_OTEL_PREFIX}_METRICS_ENABLED`,
  logs_enabled: `${GYM_OTEL_PREFIX}_LOGS_ENABLED`,
  run_id: `${GYM_OTEL_PREFIX}_RUN_ID`,
  instrument_aiohttp: `${GYM_OTEL_PREFIX}_INSTRUMENT_AIOHTTP`,
  otlp_endpoint: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  otlp_protocol: 'OTEL_EXPORTER_OTLP_PROTOCOL',
  otlp_headers: 'OTEL_EXPORTER_OTLP_HEADERS',
};

const BOOLEAN_FIELDS = new Set(['enabled', 'service_name_per_server', 'traces_enabled', 'metrics_enabled', 'logs_enabled', 'instrument_aiohttp']);
const EXPORTERS = ['otlp', 'console'];
const PROTOCOLS = ['grpc', 'http/protobuf', 'http/json'];

/**
 * Checks the effective telemetry settings (env over YAML) and throws one `GymUserError` listing
 * every bad value with its key and the valid values. The orchestrator refuses to start on it.
 */
export function validateTelemetrySettings(block: Record<string, unknown> | undefined, env: Env = process.env): void {
  const problems: string[] = [];
  const effective = (field: string): { value: string; from: string } | undefined => {
    const name = TELEMETRY_ENV_FIELDS[field]!;
    const lensName = name.startsWith(GYM_OTEL_PREFIX) ? name.replace(GYM_OTEL_PREFIX, LENS_PREFIX) : undefined;
    const fromEnv = firstNonEmpty(env, name, ...(lensName ? [lensName] : []));
    if (fromEnv !== undefined) return { value: fromEnv, from: env[name]?.trim() ? name : lensName! };
    const yaml = block?.[field];
    return yaml === undefined || yaml === null ? undefined : { value: String(yaml), from: `telemetry.${field}` };
  };
  for (const field of BOOLEAN_FIELDS) {
    const got = effective(field);
    if (got && !TRUTHY.has(got.value.toLowerCase()) && !FALSY.has(got.value.toLowerCase())) {
      problems.push(`${got.from}='${got.value}': expected one of 1/true/yes/on or 0/false/no/off`);
    }
  }
  const exporter = effective('exporter');
  if (exporter && !EXPORTERS.includes(exporter.value.toLowerCase())) problems.push(`${exporter.from}='${exporter.value}': expected one of ${EXPORTERS.join(', ')}`);
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL', 'OTEL_EXPORTER_OTLP_LOGS_PROTOCOL']) {
    const value = env[name]?.trim();
    if (value && !PROTOCOLS.includes(value.toLowerCase())) problems.push(`${name}='${value}': expected one of ${PROTOCOLS.join(', ')}`);
  }
  const protocol = block?.['otlp_protocol'];
  if (typeof protocol === 'string' && !PROTOCOLS.includes(protocol.toLowerCase())) problems.push(`telemetry.otlp_protocol='${protocol}': expected one of ${PROTOCOLS.join(', ')}`);
  if (problems.length > 0) {
    throw new GymUserError('GYM_TELEMETRY_INVALID', `Invalid telemetry settings:\n  - ${problems.join('\n  - ')}`);
  }
}

function render(value: unknown): string {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

/**
 * The orchestrator's translation of the `telemetry:` block into `env` (mutated), set-if-absent so
 * hand-set variables win. A disabled run writes nothing at all. Returns the run id when enabled.
 */
export function applyTelemetryEnv(block: Record<string, unknown> | undefined, env: Env = process.env): string | undefined {
  const yamlEnabled = block?.['enabled'] === true || (typeof block?.['enabled'] === 'string' && TRUTHY.has(String(block['enabled']).toLowerCase()));
  if (!yamlEnabled && !isTelemetryEnvEnabled(env)) return undefined;
  const setIfAbsent = (name: string, value: string) => {
    if (!env[name]?.trim()) env[name] = value;
  };
  setIfAbsent(TELEMETRY_ENV_FIELDS['enabled']!, '1');
  for (const [field, name] of Object.entries(TELEMETRY_ENV_FIELDS)) {
    const value = block?.[field];
    if (field !== 'enabled' && value !== undefined && value !== null) setIfAbsent(name, render(value));
  }
  for (const [name, value] of memoryProfilingEnvEntries(block)) setIfAbsent(name, value);
  setIfAbsent('OTEL_SERVICE_NAME', 'nemo-gym');
  if (!isTelemetryEnvEnabled(env)) return undefined; // an explicit `NEMO_GYM_OTEL_ENABLED=0` wins
  const runIdVar = TELEMETRY_ENV_FIELDS['run_id']!;
  const runId = env[runIdVar]?.trim() || env['SLURM_JOB_ID']?.trim() || randomUUID().replace(/-/g, '').slice(0, 12);
  env[runIdVar] = runId;
  return runId;
}
