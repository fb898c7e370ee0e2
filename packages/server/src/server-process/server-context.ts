/**
 * What a server implementation gets when its process starts: its own config, the whole resolved
 * config, addresses of the other servers, one HTTP client and a logger.
 * @module
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { restoreSecrets } from '../config/server-secrets.js';
import type { PlacedSecret } from '../config/server-secrets.js';
import { findServerBlocks } from '../config/servers.js';
import type { ConfigMap, ServerInstanceConfig, ServerRef, ServerType } from '../config/types.js';
import { GymUserError } from '../errors.js';
import type { HttpClient } from '../http/types.js';
import type { ServerDefinition } from '../server/endpoint.js';

/** The env var that carries the whole resolved config (YAML), as in the original. */
export const CONFIG_DICT_ENV = 'NEMO_GYM_CONFIG_DICT';
/** Where the resolved config is when it is too large for an env var (a 0600 file). */
export const CONFIG_DICT_FILE_ENV = 'NEMO_GYM_CONFIG_DICT_FILE';
/** With {@link CONFIG_DICT_FILE_ENV}: the server's own secrets (JSON `[{path, value}]`), which the file leaves out. */
export const CONFIG_SECRETS_ENV = 'NEMO_GYM_CONFIG_SECRETS';
/** The env var that names this process's server instance, as in the original. */
export const CONFIG_PATH_ENV = 'NEMO_GYM_CONFIG_PATH';

/** Everything a server implementation's factory receives. */
export interface ServerContext {
  /** This instance. */
  instance: ServerInstanceConfig;
  /** The instance's own field map (`instance.config`). */
  config: ConfigMap;
  /** The whole resolved config tree. */
  globalConfig: ConfigMap;
  /** Every server instance of the run. */
  servers: readonly ServerInstanceConfig[];
  /** The process's one HTTP client. */
  http: HttpClient;
  /** `http://host:port` of another instance, by `{type, name}` reference or instance name. */
  serverUrl(ref: ServerRef | string): string;
}

/** The default export of a server's `app.ts`. */
export type ServerFactory = (context: ServerContext) => ServerDefinition | Promise<ServerDefinition>;

/** Reads the server instances (with their assigned host and port) of a resolved tree. */
export function serverInstancesOf(tree: ConfigMap): ServerInstanceConfig[] {
  return findServerBlocks(tree).servers.map((block) => {
    const host = typeof block.config['host'] === 'string' ? block.config['host'] : '127.0.0.1';
    const port = typeof block.config['port'] === 'number' ? block.config['port'] : -1;
    return { ...block, host, port };
  });
}

/** `http://host:port` of an instance (IPv6 hosts bracketed). */
export function instanceUrl(instance: Pick<ServerInstanceConfig, 'host' | 'port'>): string {
  const host = instance.host.includes(':') ? `[${instance.host}]` : instance.host;
  return `http://${host}:${instance.port}`;
}

/** Builds the context of instance `name` from a resolved config tree. */
export function createServerContext(tree: ConfigMap, name: string, http: HttpClient): ServerContext {
  const servers = serverInstancesOf(tree);
  const find = (wanted: string, type?: ServerType): ServerInstanceConfig => {
    const hit = servers.find((s) => s.instanceName === wanted && (type === undefined || s.serverType === type));
    if (hit === undefined) {
      throw new GymUserError('GYM_SERVER_UNKNOWN_INSTANCE', `No server instance '${wanted}'${type ? ` of type ${type}` : ''} in the config. Known: ${servers.map((s) => s.instanceName).join(', ')}.`);
    }
    return hit;
  };
  const instance = find(name);
  return {
    instance,
    config: instance.config,
    globalConfig: tree,
    servers,
    http,
    serverUrl: (ref) => instanceUrl(typeof ref === 'string' ? find(ref) : find(ref.name, ref.type)),
  };
}

/** Reads the resolved config and instance name a parent process passed in the environment. */
export function readServerEnv(env: NodeJS.ProcessEnv = process.env): { tree: ConfigMap; name: string } {
  const file = env[CONFIG_DICT_FILE_ENV];
  const yaml = file ? readFileSync(file, 'utf8') : env[CONFIG_DICT_ENV];
  const name = env[CONFIG_PATH_ENV];
  if (!yaml || !name) {
    throw new GymUserError('GYM_SERVER_NO_CONFIG', `A gym server process needs ${CONFIG_DICT_ENV} and ${CONFIG_PATH_ENV}; start servers with 'gym env start'.`);
  }
  const tree = parseYaml(yaml) as unknown;
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) {
    throw new GymUserError('GYM_SERVER_NO_CONFIG', `${CONFIG_DICT_ENV} does not hold a YAML map.`);
  }
  const secrets = file ? env[CONFIG_SECRETS_ENV] : undefined;
  if (secrets) restoreSecrets(tree as ConfigMap, JSON.parse(secrets) as PlacedSecret[]);
  return { tree: tree as ConfigMap, name };
}
