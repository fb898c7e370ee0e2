/**
 * `startEnvironment()`: the head server plus one process per server instance, ready to serve.
 * Used by `gym env start` and by `gym eval run` in its end-to-end mode.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { ConfigInvalidError } from '@gym/server/internal/config/errors.js';
import type { ResolvedConfig } from '@gym/server/internal/config/types.js';
import { GymUserError } from '@gym/server/internal/errors.js';
import { gymMessage } from '@gym/server/internal/error-class.js';
import { createHttpClient } from '@gym/server/internal/http/client.js';
import type { GymTelemetry } from '@gym/server/internal/telemetry/state.js';
import { startHeadServer } from './head-server.js';
import type { HeadServer } from './head-server.js';
import { startMemoryProfiling } from './memory-sampler.js';
import type { MemorySampler } from './memory-sampler.js';
import { pythonCommand } from './python-interpreter.js';
import { locateServer, spawnServer } from './spawn-server.js';
import type { SpawnedServer } from './spawn-server.js';
import { startupTelemetry } from './startup-telemetry.js';
import { STOP_GRACE_MS, stopServers } from './stop-servers.js';
import { modelEndpoints, StartInterruptedError, waitForModelEndpoints, waitForServers } from './wait-ready.js';

/** Options of {@link startEnvironment}. */
export interface StartEnvironmentOptions {
  config: ResolvedConfig;
  /** Roots searched for server directories, in order. */
  roots: readonly string[];
  /** Where `<instance>.log` files go; created if missing. */
  logDir: string;
  /** Environment of the server processes. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** How long servers may take to answer `GET /`. Default 120 s. */
  serverStartTimeoutMs?: number;
  /** Echo console telemetry records on the terminal too. */
  echoTelemetry?: boolean;
  /** Server log records on the terminal as raw JSON instead of short lines. */
  verbose?: boolean;
  /** Progress lines (`starting…`, `ready`). Default: none. */
  onProgress?: (line: string) => void;
  /** The orchestrator's own telemetry (startup spans, `gym.servers.active`). */
  telemetry?: GymTelemetry;
  /** A stop request (Ctrl-C, SIGTERM, SIGHUP) during start-up: everything started is stopped and `GYM_START_INTERRUPTED` thrown. */
  signal?: AbortSignal;
}

/** A running environment. */
export interface RunningEnvironment {
  head: HeadServer;
  servers: readonly SpawnedServer[];
  logDir: string;
  /** Resolves when any server process exits, with its name and exit code. */
  firstExit: Promise<{ name: string; code: number | string }>;
  /** Stops every server (SIGTERM, then SIGKILL after a grace period) and the head server. Idempotent. */
  stop(): Promise<void>;
}

/** @throws {GymUserError} `GYM_CONFIG_NO_SERVERS` when there is nothing to start. */
export function assertHasServers(config: ResolvedConfig): void {
  if (config.servers.length === 0) {
    throw new GymUserError('GYM_CONFIG_NO_SERVERS', gymMessage('GYM_CONFIG_NO_SERVERS'));
  }
}

/**
 * Every server's entrypoint exists, and a Python one has an interpreter, before anything starts
 * (not a head server that a missing file would leave half-started).
 * @throws {GymUserError} `GYM_SERVER_ENTRYPOINT_NOT_FOUND`, `GYM_PYTHON_NOT_FOUND`.
 */
function assertEntrypointsRunnable(config: ResolvedConfig, roots: readonly string[]): void {
  for (const server of config.servers) {
    const { dir, entrypoint } = locateServer(server, roots);
    if (entrypoint.endsWith('.py')) pythonCommand(server.instanceName, dir, entrypoint, process.env);
  }
}

/** Starts the head server and every server instance, and waits until all are ready. */
export async function startEnvironment(options: StartEnvironmentOptions): Promise<RunningEnvironment> {
  const { config } = options;
  assertHasServers(config);
  assertEntrypointsRunnable(config, options.roots);
  const progress = options.onProgress ?? (() => undefined);
  mkdirSync(options.logDir, { recursive: true, mode: 0o700 });
  const servers: SpawnedServer[] = [];
  const head = await startHeadServer(config.raw, config.head, () => servers.map((s) => s.display));
  progress(`head server on ${head.address.url}`);
  const http = createHttpClient({ retry: { maxAttempts: 1 } });
  const startup = startupTelemetry(options.telemetry);
  let memory: MemorySampler | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      startup.stopped();
      memory?.stop(); // the last sample, while the servers still run
      await stopServers(servers, STOP_GRACE_MS, {
        onKilled: (server) => progress(`server '${server.display.process_name}' did not stop within ${STOP_GRACE_MS / 1000} s of SIGTERM; killed (its last telemetry was not flushed)`),
        onLeftovers: (server, _, description) => progress(`server '${server.display.process_name}' left processes running after it stopped: ${description}`),
      });
      await head.close();
      await http.close();
    })());
  try {
    for (const instance of config.servers) {
      const server = spawnServer({
        instance,
        roots: options.roots,
        config: config.raw,
        logDir: options.logDir,
        env: options.env ?? process.env,
        echoTelemetry: options.echoTelemetry ?? false,
        verbose: options.verbose ?? false,
      });
      servers.push(server);
      startup.serverSpawned(instance.instanceName, instance.serverType);
      const python = server.pythonCommand === undefined ? '' : ` with ${server.pythonCommand}`;
      progress(`starting ${instance.instanceName} (${instance.serverType}/${instance.implementation}) on ${instance.host}:${instance.port}${python}`);
    }
    await waitForServers(http, servers, options.serverStartTimeoutMs ?? 120_000, (server) => startup.serverReady(server.display.process_name), options.signal);
    if (options.signal?.aborted === true) throw new StartInterruptedError('the servers to start');
    const readiness = Number(config.raw['model_endpoint_readiness_timeout_seconds'] ?? 600);
    if (!Number.isFinite(readiness) || readiness < 0) {
      throw new ConfigInvalidError(
        `model_endpoint_readiness_timeout_seconds must be a number of seconds ≥ 0 (0 skips the wait), got '${String(config.raw['model_endpoint_readiness_timeout_seconds'])}'.`,
      );
    }
    await waitForModelEndpoints(http, modelEndpoints(config.raw), { timeoutMs: readiness * 1000, onWaiting: progress, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  } catch (error) {
    await stop();
    throw error;
  }
  startup.finished(servers.length);
  memory = startMemoryProfiling(
    options.telemetry,
    servers.map((s) => ({ name: s.display.process_name, type: s.display.server_type, pid: s.child.pid })),
    progress,
  );
  progress(`all ${servers.length} servers ready; logs in ${options.logDir}`);
  const firstExit = Promise.race(servers.map((s) => s.exited.then((code) => ({ name: s.display.process_name, code }))));
  return { head, servers, logDir: options.logDir, firstExit, stop };
}
