/**
 * Spawns one server instance as its own Node process running TypeScript sources, with an IPC
 * channel as its liveness link: when this process ends, however it ends (kill -9 included), the
 * channel closes and the server stops and flushes (`process/parent-link.ts`). With
 * `num_workers > 1` that process is a cluster primary (`process/server-workers.ts`): it reports its
 * workers over the channel once they all listen, and stops them when the channel closes.
 * @module
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpConfigYaml } from '../config/dump.js';
import { redactSecrets } from '../config/redact.js';
import { configForServer, ownSecrets } from '../config/server-secrets.js';
import type { ConfigMap, ServerInstanceConfig } from '../config/types.js';
import { GymUserError } from '../errors.js';
import { typescriptNodeFlags } from '../process/node-flags.js';
import { CONFIG_DICT_ENV, CONFIG_DICT_FILE_ENV, CONFIG_PATH_ENV, CONFIG_SECRETS_ENV, instanceUrl } from '../process/server-context.js';
import { newServerToken, SERVER_TOKEN_ENV } from '../process/server-identity.js';
import { isWorkersMessage, numWorkersOf } from '../process/server-workers.js';
import { TELEMETRY_FILE_ENV } from '../telemetry/console-file.js';
import { isLossesMessage } from '../telemetry/loss-report.js';
import type { TelemetryLosses } from '@gym/lens';
import { teeChildOutput } from './log-tee.js';
import type { Tee } from './log-tee.js';
import type { ServerInstanceDisplay } from './server-instances.js';

const SERVER_MAIN = fileURLToPath(new URL('../process/server-main.ts', import.meta.url));
/** Extra Node flags for server processes, space-separated. */
export const SERVER_NODE_FLAGS_ENV = 'GYM_SERVER_NODE_FLAGS';
/** Configs larger than this go to a file instead of the environment (Linux caps one variable at 128 KiB). */
const MAX_ENV_CONFIG_BYTES = 64 * 1024;

/** A spawned server process. */
export interface SpawnedServer {
  display: ServerInstanceDisplay;
  child: ChildProcess;
  tee: Tee;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  /** The instance's `num_workers` (1: a single process, no cluster). */
  numWorkers: number;
  /** True once every worker listens (at once for a single process); `display.workers` is then set. */
  workersListening(): boolean;
  /** The random token this start's server echoes on `GET /` (`process/server-identity.ts`). */
  token: string;
  /** The telemetry losses its processes reported when they stopped (one entry per process or worker). */
  losses: TelemetryLosses[];
}

/** Options of {@link spawnServer}. */
export interface SpawnServerOptions {
  instance: ServerInstanceConfig;
  /** Roots searched for `<server_type>/<implementation>/`, in order. */
  roots: readonly string[];
  /** The resolved config; the child gets it with only its own block's secrets (`NEMO_GYM_CONFIG_DICT`). */
  config: ConfigMap;
  logDir: string;
  /** Environment of the child (already carrying telemetry settings). */
  env: NodeJS.ProcessEnv;
  echoTelemetry?: boolean;
  /** Server log records on the terminal as raw JSON (`--verbose`). */
  verbose?: boolean;
}

/** Finds `<root>/<server_type>/<implementation>/` and its entrypoint file. */
export function locateServer(instance: ServerInstanceConfig, roots: readonly string[]): { dir: string; entrypoint: string } {
  const file = typeof instance.config['entrypoint'] === 'string' ? (instance.config['entrypoint']) : 'app.ts';
  const tried: string[] = [];
  for (const root of roots) {
    const dir = join(root, instance.serverType, instance.implementation);
    const entrypoint = join(dir, file);
    if (existsSync(entrypoint)) return { dir, entrypoint };
    tried.push(entrypoint);
  }
  throw new GymUserError('GYM_SERVER_ENTRYPOINT_NOT_FOUND', `Server instance '${instance.instanceName}' (${instance.serverType}/${instance.implementation}) has no entrypoint; looked for: ${tried.join(', ')}. Set 'entrypoint' in its config or add the file.`);
}

/** Starts the process of one server instance and tees its output into `<logDir>/<instance>.log`. */
export function spawnServer(options: SpawnServerOptions): SpawnedServer {
  const { instance } = options;
  const { dir, entrypoint } = locateServer(instance, options.roots);
  const logPath = join(options.logDir, `${instance.instanceName}.log`);
  const token = newServerToken();
  const env: NodeJS.ProcessEnv = { ...options.env, [CONFIG_PATH_ENV]: instance.instanceName, [SERVER_TOKEN_ENV]: token };
  // console telemetry goes straight into the log file, asynchronously: through stdout it would
  // be a synchronous pipe write per batch and a second copy through this process (measured: the
  // default preset lost two thirds of its throughput that way). --show-telemetry keeps stdout.
  if (!options.echoTelemetry) env[TELEMETRY_FILE_ENV] = logPath;
  const configYaml = dumpConfigYaml(configForServer(options.config, instance.instanceName));
  if (Buffer.byteLength(configYaml) <= MAX_ENV_CONFIG_BYTES) {
    env[CONFIG_DICT_ENV] = configYaml;
  } else {
    // the file holds no secret at all; the server's own secrets stay in its environment
    const path = join(options.logDir, `${instance.instanceName}.config.yaml`);
    writeFileSync(path, dumpConfigYaml(redactSecrets(options.config)), { mode: 0o600 });
    env[CONFIG_DICT_FILE_ENV] = path;
    env[CONFIG_SECRETS_ENV] = JSON.stringify(ownSecrets(options.config, instance.instanceName));
  }
  // detached: a terminal Ctrl-C reaches only the orchestrator, which then stops servers in order
  // extra Node flags for every server (`--max-old-space-size=8192`, `--cpu-prof`, an `--import` preload
  // written in TypeScript: they come after tsx's own flags); NODE_OPTIONS refuses some
  const extraFlags = (env[SERVER_NODE_FLAGS_ENV] ?? '').split(/\s+/).filter((flag) => flag.length > 0);
  const numWorkers = numWorkersOf(instance.config);
  const child = spawn(process.execPath, [...typescriptNodeFlags(), ...extraFlags, SERVER_MAIN, entrypoint], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: true });
  // if the orchestrator dies without stopping its servers, they must not outlive it
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const tee = teeChildOutput(child.stdout!, child.stderr!, {
    name: instance.instanceName,
    logPath,
    echoTelemetry: options.echoTelemetry ?? false,
    rawJson: options.verbose ?? false,
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', (error) => resolve(error.message));
  });
  const display: ServerInstanceDisplay = {
    process_name: instance.instanceName,
    server_type: instance.serverType,
    name: instance.implementation,
    dir_path: dir,
    entrypoint,
    host: instance.host,
    port: instance.port,
    url: instanceUrl(instance),
    pid: child.pid ?? null,
    config_path: instance.instanceName,
    start_time: Date.now() / 1000,
  };
  let listening = numWorkers === 1;
  const losses: TelemetryLosses[] = [];
  child.on('message', (message: unknown) => {
    if (isLossesMessage(message)) losses.push(message.losses);
    else if (numWorkers > 1 && isWorkersMessage(message)) {
      display.workers = message.workers.map((w) => ({ index: w.index, pid: w.pid }));
      listening = true;
    }
  });
  return { display, child, tee, exited, numWorkers, workersListening: () => listening, token, losses };
}
