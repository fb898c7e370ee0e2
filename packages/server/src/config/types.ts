/**
 * Public types of the config system.
 * @module
 */

/** A plain YAML map after parsing. */
export type ConfigMap = Record<string, unknown>;

/** The three user-facing server kinds; also the middle key of a server block. */
export type ServerType = 'resources_servers' | 'responses_api_models' | 'responses_api_agents';

/** Every {@link ServerType}, in the order the reference lists them. */
export const SERVER_TYPES: readonly ServerType[] = ['resources_servers', 'responses_api_models', 'responses_api_agents'];

/** A `{type, name}` pointer from one server instance to another. */
export interface ServerRef {
  type: ServerType;
  name: string;
}

/** One server instance, parsed from a 3-level block `instance → server type → implementation → fields`. */
export interface ServerInstanceConfig {
  /** Top-level key, e.g. `policy_model`; how other servers address it. */
  instanceName: string;
  serverType: ServerType;
  /** Implementation directory name, e.g. `simple_agent`. */
  implementation: string;
  /** The implementation's field map (a copy of the inner block, with `host` and `port` filled in). */
  config: ConfigMap;
  host: string;
  port: number;
}

/** Where the head server listens. */
export interface HeadServerConfig {
  host: string;
  port: number;
}

/**
 * Config selectors, the CLI's sugar for `config_paths` entries. Each name may be `name` or
 * `name/flavor` (→ `configs/<flavor>.yaml`).
 */
export interface ConfigSelectors {
  /** `--resources-server X` → `resources_servers/X/configs/X.yaml`. */
  resourcesServers?: readonly string[];
  /** `--model-type Y` → `responses_api_models/Y/configs/Y.yaml`. */
  modelTypes?: readonly string[];
  /** `--benchmark B` → `benchmarks/B/config.yaml`. */
  benchmarks?: readonly string[];
  /** `--environment E` → `environments/E/config.yaml`. */
  environments?: readonly string[];
  /** `--config PATH`, repeatable; relative paths are looked up in the search roots. */
  configs?: readonly string[];
  /** `--search-dir DIR`, repeatable; extra roots searched before the root dir. */
  searchDirs?: readonly string[];
}

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** The repo root / working dir: last search root, and home of `env.yaml`. */
  rootDir: string;
  selectors?: ConfigSelectors;
  /** Hydra-style overrides: `+k=v`, `++k=v`, `k=v`, `~k`. */
  overrides?: readonly string[];
  /** Environment for `${oc.env:…}` and `NEMO_GYM_EXTRA_ROOTS`. Defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Path of `env.yaml`; `false` skips it. Defaults to `<rootDir>/env.yaml` when that file exists. */
  envYamlPath?: string | false;
  /** Probe free ports by binding (default `true`). With `false`, unset ports become `-1`. */
  probePorts?: boolean;
}

/** The fully resolved config. */
export interface ResolvedConfig {
  /** Merged and interpolated tree, with hosts, ports and `head_server` filled in. */
  raw: ConfigMap;
  servers: ServerInstanceConfig[];
  head: HeadServerConfig;
  /** The `telemetry:` block, if present. */
  telemetry: ConfigMap | undefined;
  /** Files in merge order (includes before their includer, then `env.yaml`). */
  sources: string[];
  /** Non-fatal notes (duplicate includes, …) for the caller to log. */
  warnings: string[];
}
