/**
 * The telemetry settings of a process, resolved once into one immutable object that is passed to
 * whoever needs it (initTelemetry, the orchestrator's environment for its servers, the memory
 * sampler). One precedence — `NEMO_GYM_OTEL_<KEY>` over `NEMO_LENS_<KEY>` over the `telemetry:`
 * YAML block over the default (nemo-gym-observability.md §2) — and one reading of values: trimmed,
 * an empty value is unset. Imports nothing of lens: the pre-check of a process without telemetry
 * costs a few string reads.
 * @module
 */
import { GYM_TELEMETRY_WARNINGS, gymWarn } from './warn.js';

/** The primary prefix; `NEMO_LENS_*` is the fallback for the keys lens knows. */
export const GYM_OTEL_PREFIX = 'NEMO_GYM_OTEL';
export const LENS_PREFIX = 'NEMO_LENS';

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

  /** A key lens knows: `NEMO_GYM_OTEL_<KEY>`, then `NEMO_LENS_<KEY>`, then the block. */
  lensKey(key: string, yamlKey: string): Found | undefined {
    return this.find([`${GYM_OTEL_PREFIX}_${key}`, `${LENS_PREFIX}_${key}`], [yamlKey]);
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
  const memoryEnabled = read.boolean(read.find([`${GYM_OTEL_PREFIX}_MEMORY_PROFILING_ENABLED`], ['memory_profiling', 'enabled']), false);
  const intervalSeconds = Number(read.find([`${GYM_OTEL_PREFIX}_MEMORY_PROFILING_INTERVAL_SECONDS`], ['memory_profiling', 'interval_seconds'])?.value);
  const settings: TelemetrySettings = {
    enabled: read.boolean(read.lensKey('ENABLED', 'enabled'), false),
    exporter: read.oneOf(read.lensKey('EXPORTER', 'exporter'), EXPORTERS, 'otlp'),
    spanGroups: read.lensKey('SPAN_GROUPS', 'span_groups')?.value ?? 'default',
    tracesEnabled: read.boolean(read.lensKey('TRACES_ENABLED', 'traces_enabled'), true),
    metricsEnabled: read.boolean(read.lensKey('METRICS_ENABLED', 'metrics_enabled'), true),
    logsEnabled: read.boolean(read.lensKey('LOGS_ENABLED', 'logs_enabled'), false),
    serviceGroup: read.find(['OTEL_SERVICE_NAME'], ['service_name'])?.value ?? 'nemo-gym',
    serviceNamePerServer: read.boolean(read.find([`${GYM_OTEL_PREFIX}_SERVICE_NAME_PER_SERVER`], ['service_name_per_server']), true),
    runId: read.lensKey('RUN_ID', 'run_id')?.value,
    user: read.lensKey('USER_ID', 'user_id')?.value ?? '',
    wandbEntity: text(env['WANDB_ENTITY']) ?? '',
    wandbProject: text(env['WANDB_PROJECT']) ?? '',
    metricExportIntervalMs: read.positiveInteger(read.find(['OTEL_METRIC_EXPORT_INTERVAL'], []), DEFAULT_METRIC_EXPORT_INTERVAL_MS),
    memoryProfiling: {
      enabled: memoryEnabled,
      // a bad interval is the default, as the original does; the switch itself is validated
      intervalMs: Math.max(1, Math.round((Number.isFinite(intervalSeconds) && intervalSeconds > 0 ? intervalSeconds : DEFAULT_MEMORY_INTERVAL_SECONDS) * 1000)),
    },
  };
  // accepted for compatibility; gym has no aiohttp to instrument
  read.boolean(read.find([`${GYM_OTEL_PREFIX}_INSTRUMENT_AIOHTTP`], ['instrument_aiohttp']), false);
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL', 'OTEL_EXPORTER_OTLP_LOGS_PROTOCOL']) {
    read.oneOf(read.find([name], name === 'OTEL_EXPORTER_OTLP_PROTOCOL' ? ['otlp_protocol'] : []), OTLP_PROTOCOLS, 'grpc');
  }
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
