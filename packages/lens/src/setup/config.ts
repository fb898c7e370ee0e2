/**
 * `NemoLensConfig`: the switches of lens, built directly or from prefixed environment variables.
 * @module
 */
import { parseBoolean, readEnv } from './env.js';
import type { Env } from './env.js';

/** Names accepted for {@link NemoLensConfig.exporter}. */
export const EXPORTER_NAMES = ['otlp', 'console'] as const;

/** The plain fields of a {@link NemoLensConfig}. */
export interface NemoLensConfigFields {
  /** Master switch; telemetry is off unless this is true. Default false. */
  enabled: boolean;
  /** `service.name` resource attribute. Default `'nemo'`. */
  serviceName: string;
  /** Build the tracer provider. Default true. */
  tracesEnabled: boolean;
  /** Build the meter provider. Default true. */
  metricsEnabled: boolean;
  /** Build the logger provider. Default false. */
  logsEnabled: boolean;
  /** Span-group spec (comma list of presets and groups, `all`). Default `'default'`. */
  spanGroups: string;
  /** `'otlp'` or `'console'`; validated when providers are built. Default `'otlp'`. */
  exporter: string;
  /** Run identifier (`nemo.run.id`); filled in at setup when empty. */
  runId: string;
  /** `nemo.user.id`; omitted when empty. */
  user: string;
  /** `wandb.entity`; omitted when empty. */
  wandbEntity: string;
  /** `wandb.project`; omitted when empty. */
  wandbProject: string;
}

type BoolKey = 'enabled' | 'tracesEnabled' | 'metricsEnabled' | 'logsEnabled';
type StringKey = 'spanGroups' | 'exporter' | 'runId' | 'user';

const BOOL_KEYS: ReadonlyArray<[BoolKey, string]> = [
  ['enabled', 'ENABLED'],
  ['tracesEnabled', 'TRACES_ENABLED'],
  ['metricsEnabled', 'METRICS_ENABLED'],
  ['logsEnabled', 'LOGS_ENABLED'],
];
// USER_ID feeds `user`: the key/field mismatch is the original's, kept for compatibility.
const STRING_KEYS: ReadonlyArray<[StringKey, string]> = [
  ['spanGroups', 'SPAN_GROUPS'],
  ['exporter', 'EXPORTER'],
  ['runId', 'RUN_ID'],
  ['user', 'USER_ID'],
];

/**
 * Lens configuration: a plain mutable record. Mutating it after {@link NemoLensConfig.fromEnv} is
 * fine (`cfg.enabled = cfg.enabled && isLastRank`).
 * @example
 * const cfg = NemoLensConfig.fromEnv('NEMO_GYM_OTEL', 'NEMO_LENS');
 * const handle = await setupTelemetry(cfg);
 */
export class NemoLensConfig implements NemoLensConfigFields {
  enabled = false;
  serviceName = 'nemo';
  tracesEnabled = true;
  metricsEnabled = true;
  logsEnabled = false;
  spanGroups = 'default';
  exporter = 'otlp';
  runId = '';
  user = '';
  wandbEntity = '';
  wandbProject = '';

  /** Builds a config from defaults overridden by `fields`. Reads no environment. */
  constructor(fields: Partial<NemoLensConfigFields> = {}) {
    Object.assign(this, fields);
  }

  /**
   * Reads `<prefix>_<KEY>` (trimmed; empty = unset), then `<fallbackPrefix>_<KEY>`, then the default,
   * for ENABLED, TRACES_ENABLED, METRICS_ENABLED, LOGS_ENABLED, SPAN_GROUPS, EXPORTER, RUN_ID and
   * USER_ID. Also `OTEL_SERVICE_NAME` → `serviceName` and `WANDB_ENTITY` / `WANDB_PROJECT`.
   * @throws LensConfigError (`LENS_CONFIG_INVALID_VALUE`) for a boolean that is not one of
   *   `1/true/yes/on/0/false/no/off`, naming the variable the value came from.
   */
  static fromEnv(prefix = 'NEMO_LENS', fallbackPrefix?: string, env: Env = process.env): NemoLensConfig {
    const cfg = new NemoLensConfig();
    const lookup = (key: string): [string, string] | undefined => {
      for (const p of fallbackPrefix ? [prefix, fallbackPrefix] : [prefix]) {
        const value = readEnv(env, `${p}_${key}`);
        if (value !== undefined) return [`${p}_${key}`, value];
      }
      return undefined;
    };
    for (const [field, key] of BOOL_KEYS) {
      const found = lookup(key);
      if (found) cfg[field] = parseBoolean(found[0], found[1]);
    }
    for (const [field, key] of STRING_KEYS) {
      const found = lookup(key);
      if (found) cfg[field] = found[1];
    }
    cfg.serviceName = readEnv(env, 'OTEL_SERVICE_NAME') ?? cfg.serviceName;
    cfg.wandbEntity = readEnv(env, 'WANDB_ENTITY') ?? '';
    cfg.wandbProject = readEnv(env, 'WANDB_PROJECT') ?? '';
    return cfg;
  }
}
