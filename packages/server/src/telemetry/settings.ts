/**
 * The telemetry settings of a process, resolved once into one immutable object that is passed to
 * whoever needs it (initTelemetry, the orchestrator's environment for its servers, the memory
 * sampler). One precedence — `NEMO_GYM_OTEL_<KEY>` over `NEMO_LENS_<KEY>` over the `telemetry:`
 * YAML block over the default (docs/observability/configuration.md) — and one reading of values: trimmed,
 * an empty value is unset. Imports nothing of lens: the pre-check of a process without telemetry
 * costs a few string reads.
 * @module
 */
import { GYM_TELEMETRY_WARNINGS, gymWarn } from './warn.js';

/** The primary prefix; `NEMO_LENS_*` is the fallback for the keys lens knows. */
export const GYM_OTEL_PREFIX = 'NEMO_GYM_OTEL';
export const LENS_PREFIX = 'NEMO_LENS';

/** `telemetry:` block fields → the variable that carries each (the orchestrator writes them set-if-absent). */
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
  async_context: `${GYM_OTEL_PREFIX}_ASYNC_CONTEXT`,
  otlp_endpoint: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  otlp_protocol: 'OTEL_EXPORTER_OTLP_PROTOCOL',
  otlp_headers: 'OTEL_EXPORTER_OTLP_HEADERS',
};
/** `telemetry.memory_profiling` fields → their variables, as the original names them (docs/observability/configuration.md). */
export const MEMORY_PROFILING_ENV_FIELDS: Readonly<Record<string, string>> = {
  enabled: `${GYM_OTEL_PREFIX}_MEMORY_PROFILING_ENABLED`,
  interval_seconds: `${GYM_OTEL_PREFIX}_MEMORY_PROFILING_INTERVAL_SECONDS`,
};
/** Fields lens knows too: their `NEMO_LENS_*` spelling is the fallback. The others are gym's own. */
const LENS_FIELDS: ReadonlySet<string> = new Set(['enabled', 'span_groups', 'exporter', 'traces_enabled', 'metrics_enabled', 'logs_enabled', 'run_id']);

type Env = Readonly<Record<string, string | undefined>>;
type Block = Readonly<Record<string, unknown>> | undefined;

/** Everything gym's telemetry reads, resolved. */
export interface TelemetrySettings {
  readonly enabled: boolean;
  /** `otlp` or `console`. */
  readonly exporter: string;
  /** The span-group spec (presets and groups). */
  readonly spanGroups: string;
  readonly tracesEnabled: boolean;
  readonly metricsEnabled: boolean;
  readonly logsEnabled: boolean;
  /** `OTEL_SERVICE_NAME` (default `nemo-gym`): the service group, and the prefix of per-server names. */
  readonly serviceGroup: string;
  /** `service.name` = `<group>/<server>` (default) or the group alone. */
  readonly serviceNamePerServer: boolean;
  /** The run id every process of a run shares; `undefined` until the orchestrator fixes one. */
  readonly runId: string | undefined;
  readonly user: string;
  readonly wandbEntity: string;
  readonly wandbProject: string;
  /**
   * How often metrics are exported (`OTEL_METRIC_EXPORT_INTERVAL`, ms). gym's default is 1000: one
   * saturation point a second is what lets `gym trace why` name a busy process even on a short run.
   */
  readonly metricExportIntervalMs: number;
  /** The original's `telemetry.memory_profiling`: the orchestrator samples its servers' memory. */
  readonly memoryProfiling: { readonly enabled: boolean; readonly intervalMs: number };
  /** `explicit` (default): the request's scope is passed across `await`; `implicit`: AsyncLocalStorage carries it (docs/observability/extending.md). */
  readonly asyncContext: AsyncContextMode;
}

/** Settings and the problems found resolving them (bad values are replaced by defaults). */
export interface ResolvedTelemetrySettings {
  settings: TelemetrySettings;
  /** One line per bad value: where it came from and what is valid. */
  problems: string[];
}

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);
const FALSY = new Set(['0', 'false', 'no', 'off']);
export const EXPORTERS = ['otlp', 'console'] as const;
export const OTLP_PROTOCOLS = ['grpc', 'http/protobuf', 'http/json'] as const;
/** How a request's trace context follows server code: passed on by the code (`explicit`), or through every promise (`implicit`). */
export const ASYNC_CONTEXTS = ['explicit', 'implicit'] as const;
export type AsyncContextMode = (typeof ASYNC_CONTEXTS)[number];
const DEFAULT_MEMORY_INTERVAL_SECONDS = 1.0;
export const DEFAULT_METRIC_EXPORT_INTERVAL_MS = 1000;

/** Telemetry off: what a process without any setting runs with. */
export const TELEMETRY_OFF: TelemetrySettings = Object.freeze({
  enabled: false,
  exporter: 'otlp',
  spanGroups: 'default',
  tracesEnabled: true,
  metricsEnabled: true,
  logsEnabled: false,
  serviceGroup: 'nemo-gym',
  serviceNamePerServer: true,
  runId: undefined,
  user: '',
  wandbEntity: '',
  wandbProject: '',
  metricExportIntervalMs: DEFAULT_METRIC_EXPORT_INTERVAL_MS,
  memoryProfiling: Object.freeze({ enabled: false, intervalMs: DEFAULT_MEMORY_INTERVAL_SECONDS * 1000 }),
  asyncContext: 'explicit',
});

interface Found {
  value: string;
  /** The variable or YAML key it came from, for messages. */
  from: string;
}

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** Reads settings: env variables in order, then a YAML path of the block. */
class SettingReader {
  readonly problems: string[] = [];

  constructor(
    private readonly env: Env,
    private readonly block: Block,
  ) {}

  find(names: readonly string[], yamlPath: readonly string[]): Found | undefined {
    for (const name of names) {
      const value = text(this.env[name]);
      if (value !== undefined) return { value, from: name };
    }
    if (yamlPath.length === 0) return undefined;
    let node: unknown = this.block;
    for (const key of yamlPath) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    if (node === undefined || node === null) return undefined;
    const value = typeof node === 'boolean' ? (node ? 'true' : 'false') : text(String(node));
    return value === undefined ? undefined : { value, from: `telemetry.${yamlPath.join('.')}` };
  }

  /** A block field: its variable (`NEMO_LENS_*` after `NEMO_GYM_OTEL_*` for fields lens knows), then the block. */
  field(yamlField: string): Found | undefined {
    const name = TELEMETRY_ENV_FIELDS[yamlField]!;
    return this.find(LENS_FIELDS.has(yamlField) ? [name, name.replace(GYM_OTEL_PREFIX, LENS_PREFIX)] : [name], [yamlField]);
  }

  /** A `memory_profiling` field: its variable, then the block. */
  memoryField(yamlField: string): Found | undefined {
    return this.find([MEMORY_PROFILING_ENV_FIELDS[yamlField]!], ['memory_profiling', yamlField]);
  }

  boolean(found: Found | undefined, fallback: boolean): boolean {
    if (found === undefined) return fallback;
    const value = found.value.toLowerCase();
    if (TRUTHY.has(value)) return true;
    if (FALSY.has(value)) return false;
    this.problems.push(`${found.from}='${found.value}': expected one of 1/true/yes/on or 0/false/no/off`);
    return fallback;
  }

  /** A standard variable other tools read too: a bad value means the default, not a refusal. */
  positiveInteger(found: Found | undefined, fallback: number): number {
    const value = Number(found?.value);
    return Number.isInteger(value) && value > 0 ? value : fallback;
  }

  oneOf(found: Found | undefined, valid: readonly string[], fallback: string): string {
    if (found === undefined) return fallback;
    const value = found.value.toLowerCase();
    if (valid.includes(value)) return value;
    this.problems.push(`${found.from}='${found.value}': expected one of ${valid.join(', ')}`);
    return fallback;
  }
}

/** Resolves the settings of `block` (the config's `telemetry:` section) under `env`. Never throws. */
export function resolveTelemetrySettings(block: Block, env: Env): ResolvedTelemetrySettings {
  const read = new SettingReader(env, block);
  const memoryEnabled = read.boolean(read.memoryField('enabled'), false);
  const intervalSeconds = Number(read.memoryField('interval_seconds')?.value);
  const settings: TelemetrySettings = {
    enabled: read.boolean(read.field('enabled'), false),
    exporter: read.oneOf(read.field('exporter'), EXPORTERS, 'otlp'),
    spanGroups: read.field('span_groups')?.value ?? 'default',
    tracesEnabled: read.boolean(read.field('traces_enabled'), true),
    metricsEnabled: read.boolean(read.field('metrics_enabled'), true),
    logsEnabled: read.boolean(read.field('logs_enabled'), false),
    serviceGroup: read.field('service_name')?.value ?? 'nemo-gym',
    serviceNamePerServer: read.boolean(read.field('service_name_per_server'), true),
    runId: read.field('run_id')?.value,
    // lens's USER_ID (feeding `user`, as the original) is not a field the orchestrator hands on
    user: read.find([`${GYM_OTEL_PREFIX}_USER_ID`, `${LENS_PREFIX}_USER_ID`], ['user_id'])?.value ?? '',
    wandbEntity: text(env['WANDB_ENTITY']) ?? '',
    wandbProject: text(env['WANDB_PROJECT']) ?? '',
    metricExportIntervalMs: read.positiveInteger(read.find(['OTEL_METRIC_EXPORT_INTERVAL'], []), DEFAULT_METRIC_EXPORT_INTERVAL_MS),
    memoryProfiling: {
      enabled: memoryEnabled,
      // a bad interval is the default, as the original does; the switch itself is validated
      intervalMs: Math.max(1, Math.round((Number.isFinite(intervalSeconds) && intervalSeconds > 0 ? intervalSeconds : DEFAULT_MEMORY_INTERVAL_SECONDS) * 1000)),
    },
    asyncContext: read.oneOf(read.field('async_context'), ASYNC_CONTEXTS, 'explicit') as AsyncContextMode,
  };
  // accepted for compatibility; gym has no aiohttp to instrument
  read.boolean(read.field('instrument_aiohttp'), false);
  read.oneOf(read.field('otlp_protocol'), OTLP_PROTOCOLS, 'grpc');
  for (const signal of ['TRACES', 'METRICS', 'LOGS']) read.oneOf(read.find([`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`], []), OTLP_PROTOCOLS, 'grpc');
  return { settings: Object.freeze({ ...settings, memoryProfiling: Object.freeze(settings.memoryProfiling) }), problems: read.problems };
}

/**
 * The settings of a server process from its environment (what the orchestrator wrote, or what
 * its user set by hand). A bad value is one warning and the process serves without telemetry:
 * telemetry never stops a server.
 */
export function serverTelemetrySettings(env: Env = process.env): TelemetrySettings {
  const { settings, problems } = resolveTelemetrySettings(undefined, env);
  if (problems.length === 0) return settings;
  if (settings.enabled) gymWarn(GYM_TELEMETRY_WARNINGS.INVALID_ENV, `invalid telemetry environment; telemetry disabled: ${problems.join('; ')}`);
  return TELEMETRY_OFF;
}
