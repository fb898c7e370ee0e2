/**
 * Spawns one server instance as its own Node process (compiled, or its TypeScript through tsx:
 * `compiled-server.ts`), with an IPC
 * channel as its liveness link: when this process ends, however it ends (kill -9 included), the
 * channel closes and the server stops and flushes (`server-process/parent-link.ts`). With
 * `num_workers > 1` that process is a cluster primary (`server-process/server-workers.ts`): it reports its
 * workers over the channel once they all listen, and stops them when the channel closes.
 * An entrypoint ending in `.py` is a Python server, started as the original starts it (its
 * directory, `NEMO_GYM_CONFIG_DICT`, `NEMO_GYM_CONFIG_PATH`, `PYTHONPATH`) under a small Node host
 * that holds the liveness link for it (`server-process/python-host.ts`).
 * @module
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpConfigYaml } from '@gym/server/internal/config/dump.js';
import { redactSecrets } from '@gym/server/internal/config/redact.js';
import { configForServer, ownSecrets } from '@gym/server/internal/config/server-secrets.js';
import type { ConfigMap, ServerInstanceConfig } from '@gym/server/internal/config/types.js';
import { GymUserError } from '@gym/server/internal/errors.js';
import { nodeFlagsLoading } from './node-flags.js';
import { isPythonChildMessage } from '@gym/server/internal/server-process/python-child-message.js';
import { CONFIG_DICT_ENV, CONFIG_DICT_FILE_ENV, CONFIG_PATH_ENV, CONFIG_SECRETS_ENV, instanceUrl } from '@gym/server/internal/server-process/server-context.js';
import { newServerToken, SERVER_TOKEN_ENV } from '@gym/server/internal/server-process/server-identity.js';
import { isWorkersMessage, numWorkersOf } from '@gym/server/internal/server-process/server-workers.js';
import { TELEMETRY_FILE_ENV } from '@gym/server/internal/telemetry/console-file.js';
import { isLossesMessage } from '@gym/server/internal/telemetry/loss-report.js';
import type { TelemetryLosses } from '@gym/lens/setup';
import { runnableEntrypoint } from './compiled-server.js';
import { teeChildOutput } from './log-tee.js';
import type { Tee } from './log-tee.js';
import { pythonCommand } from './python-interpreter.js';
import type { PythonCommand } from './python-interpreter.js';
import type { ServerInstanceDisplay } from './server-instances.js';

// resolved as this process resolves @gym/server: its sources under the `source` condition, else its build
const SERVER_MAIN = fileURLToPath(import.meta.resolve('@gym/server/internal/server-process/server-main.js'));
const PYTHON_HOST = fileURLToPath(import.meta.resolve('@gym/server/internal/server-process/python-host.js'));
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
  /** What runs the server: our Node server process, or a Python server under its host process. */
  language: 'typescript' | 'python';
  /** The random token this start's server echoes on `GET /` (`server-process/server-identity.ts`); a Python server does not echo it. */
  token: string;
  /** The pid of a Python server's own process (the leader of its process group), once its host reported it. */
  pythonPid(): number | undefined;
  /** The command running a Python server (`.venv/bin/python app.py`, `uv run …`), for the start-up line. */
  pythonCommand?: string;
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
  const file = typeof instance.config['entrypoint'] === 'string' ? instance.config['entrypoint'] : 'app.ts';
  const tried: string[] = [];
  for (const root of roots) {
    const dir = join(root, instance.serverType, instance.implementation);
    const entrypoint = join(dir, file);
    if (existsSync(entrypoint)) return { dir, entrypoint };
    tried.push(entrypoint);
  }
  // the original's configs name `app.py`; where there is no such file but gym ships the same
  // server in TypeScript beside it (`app.ts`), that port runs, so those configs start unchanged
  if (file.endsWith('.py')) {
    for (const root of roots) {
      const dir = join(root, instance.serverType, instance.implementation);
      const port = join(dir, `${file.slice(0, -'.py'.length)}.ts`);
      if (existsSync(port)) return { dir, entrypoint: port };
    }
  }
  throw new GymUserError(
    'GYM_SERVER_ENTRYPOINT_NOT_FOUND',
    `Server instance '${instance.instanceName}' (${instance.serverType}/${instance.implementation}) has no entrypoint; looked for: ${tried.join(', ')}. Set 'entrypoint' in its config or add the file.`,
  );
}

/** Starts the process of one server instance and tees its output into `<logDir>/<instance>.log`. */
export function spawnServer(options: SpawnServerOptions): SpawnedServer {
  const { instance } = options;
  const { dir, entrypoint } = locateServer(instance, options.roots);
  const logPath = join(options.logDir, `${instance.instanceName}.log`);
  const token = newServerToken();
  const python = entrypoint.endsWith('.py');
  const launch = python ? pythonLaunch(options, dir, entrypoint) : nodeLaunch(options, runnableEntrypoint(dir, entrypoint), logPath, token);
  // one process as far as gym is concerned: a Python server runs its own workers, if any
  const numWorkers = python ? 1 : numWorkersOf(instance.config);
  // detached: a terminal Ctrl-C reaches only the orchestrator, which then stops servers in order
  const child = spawn(process.execPath, launch.args, { cwd: dir, env: launch.env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: true });
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
  let pythonPid: number | undefined;
  const losses: TelemetryLosses[] = [];
  child.on('message', (message: unknown) => {
    if (isLossesMessage(message)) losses.push(message.losses);
    else if (python && isPythonChildMessage(message)) pythonPid = message.pid;
    else if (numWorkers > 1 && isWorkersMessage(message)) {
      display.workers = message.workers.map((w) => ({ index: w.index, pid: w.pid }));
      listening = true;
    }
  });
  const language = python ? 'python' : 'typescript';
  const spawned: SpawnedServer = { display, child, tee, exited, numWorkers, workersListening: () => listening, language, token, pythonPid: () => pythonPid, losses };
  if (launch.pythonCommand !== undefined) spawned.pythonCommand = launch.pythonCommand;
  return spawned;
}

/** The command line and environment of a server process. */
interface Launch {
  /** Arguments of `node`. */
  args: string[];
  env: NodeJS.ProcessEnv;
  /** What a Python server's host runs, as one line. */
  pythonCommand?: string;
}

/** A Node server: `server-main <app>` (`app` compiled or not), its config (or a secret-free file of it) and its start token. */
function nodeLaunch(options: SpawnServerOptions, entrypoint: string, logPath: string, token: string): Launch {
  const { instance } = options;
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
  // extra Node flags for every server (`--max-old-space-size=8192`, `--cpu-prof`, an `--import` preload,
  // which may be TypeScript: tsx is then loaded first); NODE_OPTIONS refuses some
  const extraFlags = (env[SERVER_NODE_FLAGS_ENV] ?? '').split(/\s+/).filter((flag) => flag.length > 0);
  const loaded = [entrypoint, ...extraFlags.map((flag) => flag.slice(flag.indexOf('=') + 1))];
  return { args: [...nodeFlagsLoading(...loaded), ...extraFlags, SERVER_MAIN, entrypoint], env };
}

/**
 * A Python server, as the original starts it: in its directory, with the whole resolved config (its
 * own secrets only, as ours) in `NEMO_GYM_CONFIG_DICT`, its instance name in `NEMO_GYM_CONFIG_PATH`
 * and its directory first on `PYTHONPATH`; telemetry settings (`NEMO_GYM_OTEL_*`, `OTEL_*`) as every
 * server gets them, so a server running nemo-lens joins the trace. It always gets the config in the
 * environment: the original's servers read nothing else.
 * @throws {GymUserError} `GYM_PYTHON_NOT_FOUND` before anything is started when no interpreter is found.
 */
function pythonLaunch(options: SpawnServerOptions, dir: string, entrypoint: string): Launch {
  const { instance } = options;
  const baseEnv = options.env;
  const command: PythonCommand = pythonCommand(instance.instanceName, dir, entrypoint, baseEnv);
  const env: NodeJS.ProcessEnv = {
    ...baseEnv,
    [CONFIG_DICT_ENV]: dumpConfigYaml(configForServer(options.config, instance.instanceName)),
    [CONFIG_PATH_ENV]: instance.instanceName,
    PYTHONPATH: baseEnv['PYTHONPATH'] ? `${dir}${delimiter}${baseEnv['PYTHONPATH']}` : dir,
    // a pipe makes Python buffer its output in blocks: lines would reach the log late, or never on a kill
    PYTHONUNBUFFERED: baseEnv['PYTHONUNBUFFERED'] ?? '1',
  };
  return {
    args: [...nodeFlagsLoading(PYTHON_HOST), PYTHON_HOST, JSON.stringify({ command: command.command, args: command.args })],
    env,
    pythonCommand: [command.command, ...command.args].join(' '),
  };
}
