/**
 * The entry point of one server process: `node server-main.js <app.js>` (compiled; or the sources
 * and `app.ts` through tsx, `orchestrator/compiled-server.ts`), started by
 * `gym env start` with the resolved config in `NEMO_GYM_CONFIG_DICT` and the instance name in
 * `NEMO_GYM_CONFIG_PATH`. Sets telemetry up (when the environment says so), loads the
 * implementation's factory, builds its app and serves it until SIGINT/SIGTERM/SIGHUP or until its
 * orchestrator goes away (the IPC channel it was started with closes), then flushes.
 * With `num_workers: N > 1` this process is a `node:cluster` primary that forks N workers running
 * this same file (see `server-workers.ts`); each worker then does all of the above.
 * The only place of a server process that sets an exit code.
 * @module
 */
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { createSecretScrubber, processSecretScrubber, scrubSecrets, secretValuesOf, setProcessScrubber } from '../config/secret-scrub.js';
import { GymUserError } from '../errors.js';
import { createHttpClient } from '../http/client.js';
import { createModelCallCapture } from '../evidence/model-call-capture.js';
import { readEvidenceSettings } from '../evidence/settings.js';
import { upstreamConnections } from './upstream-connections.js';
import { installShutdownHandlers, listen } from '../server/lifecycle.js';
import type { AllowedHosts } from '../server/host-check.js';
import { closeTelemetryFile, openTelemetryFile } from '../telemetry/console-file.js';
import { initTelemetry } from '../telemetry/init.js';
import { serverTelemetrySettings } from '../telemetry/settings.js';
import { sendLosses } from '../telemetry/loss-report.js';
import { processTelemetry } from '../telemetry/process-telemetry.js';
import { createServerContext, readServerEnv, serverInstancesOf } from './server-context.js';
import { takeServerToken } from './server-identity.js';
import { guardStdio } from './stdio-guard.js';
import type { ServerFactory } from './server-context.js';
import { isClusterPrimary, numWorkersOf, runServerPrimary, takeWorkerSessionSecret, workerIndex } from './server-workers.js';

async function main(entrypoint: string | undefined): Promise<void> {
  if (entrypoint === undefined) throw new Error('usage: server-main.ts <path to app.ts>');
  const { tree, name } = readServerEnv();
  // before anything can fail or log: every error body, span message and log line of this process is scrubbed
  setProcessScrubber(createSecretScrubber(secretValuesOf(tree)));
  const block = serverInstancesOf(tree).find((s) => s.instanceName === name);
  const serverType = block?.serverType ?? 'unknown';
  const numWorkers = block === undefined ? 1 : numWorkersOf(block.config);
  if (numWorkers > 1 && isClusterPrimary()) return runServerPrimary({ name, numWorkers });
  // read before anything else can spawn a child; each worker of a cluster echoes the same token
  const identityToken = takeServerToken();
  const worker = numWorkers > 1 ? workerIndex() : undefined;
  const sessionSecret = worker === undefined ? undefined : takeWorkerSessionSecret();
  const telemetryFile = openTelemetryFile();
  const telemetry = await initTelemetry({ settings: serverTelemetrySettings(), serverName: name, serverType, ...(telemetryFile === undefined ? {} : { output: telemetryFile }) });
  const seams = processTelemetry(telemetry);
  const scrub = processSecretScrubber();
  const loggerOptions = scrub === undefined ? seams.loggerOptions : { ...seams.loggerOptions, hooks: { ...seams.loggerOptions.hooks, streamWrite: scrub } };
  const logger = pino({ base: worker === undefined ? { server: name } : { server: name, worker, pid: process.pid }, ...loggerOptions });
  // as the original divides its connection limits by num_workers: the workers together keep one server's budget
  const http = createHttpClient({ instrument: seams.client, ...upstreamConnections(tree, numWorkers) });
  const context = createServerContext(tree, name, http);
  const module = (await import(pathToFileURL(entrypoint).href)) as { default?: ServerFactory };
  if (typeof module.default !== 'function') {
    throw new Error(`${entrypoint} must export a default server factory (context) => ServerDefinition`);
  }
  const definition = await module.default(context);
  const evidence = readEvidenceSettings(tree);
  const modelCapture =
    evidence.enabled && definition.kind === 'model'
      ? createModelCallCapture({ captureDir: evidence.captureDir, serverName: name, onError: (err, rolloutId) => logger.warn({ err, rolloutId }, 'model-call capture could not be written') })
      : undefined;
  const app = definition.build({
    name,
    logger,
    instrumentation: seams.server,
    http,
    allowedHosts: allowedHostsOf(context.instance.host, context.config),
    ...(sessionSecret === undefined ? {} : { sessionSecret }),
    ...(identityToken === undefined ? {} : { identityToken }),
    ...(modelCapture === undefined ? {} : { modelCapture }),
  });
  installShutdownHandlers(app, {
    onShutdown: async () => {
      await http.close();
      await telemetry?.shutdown();
      await sendLosses(telemetry);
      await closeTelemetryFile(telemetryFile);
      logger.info(`stopped: requests drained${telemetry === undefined ? '' : ', telemetry flushed'}`);
      // everything is flushed or given up on (shutdown is bounded); an exporter still retrying a dead
      // collector must not keep the process alive until its own timeout
      setTimeout(() => process.exit(), 200).unref();
    },
  });
  const address = await listen(app, { host: context.instance.host, port: context.instance.port }).catch((error: unknown) => {
    throw (error as { code?: string }).code === 'EADDRINUSE' ? portInUse(name, context.instance.host, context.instance.port) : error;
  });
  logger.info({ url: address.url, kind: definition.kind, telemetry: telemetry !== undefined }, `${name}${worker === undefined ? '' : ` worker ${worker}`} listening on ${address.url}`);
}

/** The one line the orchestrator shows when a configured port is taken by another program. */
function portInUse(name: string, host: string, port: number): GymUserError {
  return new GymUserError(
    'GYM_SERVER_PORT_IN_USE',
    `server '${name}' cannot listen on ${host}:${port}: the port is in use by another program (EADDRINUSE). Free the port, or set another ${name} port (or none, to get a free one).`,
  );
}

/** The Host names this instance answers to: its configured `host` and `allowed_hosts` (`'*'`: any). */
function allowedHostsOf(host: string, config: Record<string, unknown>): AllowedHosts {
  const extra = Array.isArray(config['allowed_hosts']) ? config['allowed_hosts'].filter((h): h is string => typeof h === 'string') : [];
  return extra.includes('*') ? true : [host, ...extra];
}

guardStdio();
main(process.argv[2]).catch((error: unknown) => {
  const text = error instanceof GymUserError ? `${error.code}: ${error.message}` : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(scrubSecrets(`gym server failed to start: ${text}\n`));
  process.exitCode = 1;
  // a failed start has nothing to flush; the liveness channel must not keep the process alive
  process.disconnect?.();
});
