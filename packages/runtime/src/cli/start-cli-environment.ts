/**
 * The environment start shared by `gym env start` and `gym eval run`: a log dir, the run's telemetry
 * (checked, written into the servers' environment, set up for this process), then the servers.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { createSecretScrubber, secretValuesOf, setProcessScrubber } from '@gym/server/internal/config/secret-scrub.js';
import type { ResolvedConfig } from '@gym/server/internal/config/types.js';
import { assertHeadPortFree } from '../orchestrator/head-server.js';
import { createRunLogDir } from '../orchestrator/log-dir.js';
import { assertHasServers, startEnvironment } from '../orchestrator/start-environment.js';
import type { RunningEnvironment } from '../orchestrator/start-environment.js';
import { setUpCliTelemetry } from '../telemetry/cli-telemetry.js';
import { validateTelemetrySettings } from '../telemetry/env.js';
import { describeRunLosses, sumLosses } from '@gym/server/internal/telemetry/loss-report.js';
import type { CliTelemetry } from '../telemetry/cli-telemetry.js';
import type { CliIo } from './io.js';
import { receivedText } from './stop-requests.js';
import type { StopCause } from './stop-requests.js';

/** Options of {@link startCliEnvironment}. */
export interface CliEnvironmentOptions {
  config: ResolvedConfig;
  roots: readonly string[];
  /** Default `.gym/logs/<time>` under `cwd`. */
  logDir?: string;
  /** The run's start, the `<time>` of its default log dir. Default now. */
  startedAt?: Date;
  cwd?: string;
  role: 'orchestrator' | 'collector';
  showTelemetry?: boolean;
  /** A stop request (Ctrl-C, SIGTERM, SIGHUP) during start-up: stop what started and reject (`GYM_START_INTERRUPTED`). */
  stopSignal?: AbortSignal;
  /** Server log records as raw JSON. */
  verbose?: boolean;
}

/** A running environment and the telemetry of this process; `close()` stops both. */
export interface CliEnvironment {
  env: RunningEnvironment;
  cli: CliTelemetry;
  close: () => Promise<void>;
}

/** Starts the environment; on failure, shuts the telemetry down again before rethrowing. */
export async function startCliEnvironment(options: CliEnvironmentOptions, io: CliIo): Promise<CliEnvironment> {
  // config errors first, then a busy port: a start that fails either leaves no log dir behind
  // (nor moves `latest` to an empty one)
  assertHasServers(options.config);
  validateTelemetrySettings(options.config.telemetry, process.env);
  await assertHeadPortFree(options.config.head);
  // this process reads every server's secrets: what it prints or writes is scrubbed of them too
  setProcessScrubber(createSecretScrubber(secretValuesOf(options.config.raw)));
  // created only once the telemetry settings passed their check, so a refused start leaves nothing
  let logDir: string | undefined;
  const ensureLogDir = (): string => {
    logDir ??= options.logDir ?? createRunLogDir(options.cwd, options.startedAt);
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    return logDir;
  };
  const cli = await setUpCliTelemetry({ block: options.config.telemetry, logDir: ensureLogDir, role: options.role });
  if (cli.runId !== undefined) {
    const exporter = cli.env['NEMO_GYM_OTEL_EXPORTER'] ?? cli.env['NEMO_LENS_EXPORTER'] ?? 'otlp';
    io.err(`gym: telemetry on (run id ${cli.runId}, exporter ${exporter})${cli.telemetry === undefined ? ' but not available in this process' : ''}`);
  }
  // a stop request during start-up: say what happens (the command then says how it ended)
  const onStop = () => {
    const reason = options.stopSignal?.reason as StopCause | undefined;
    io.err(`gym: ${reason === 'SIGINT' || typeof reason !== 'string' ? 'interrupted' : receivedText(reason)}; stopping the servers started so far`);
  };
  options.stopSignal?.addEventListener('abort', onStop, { once: true });
  try {
    const env = await startEnvironment({
      config: options.config,
      roots: options.roots,
      logDir: ensureLogDir(),
      env: cli.env,
      echoTelemetry: options.showTelemetry ?? false,
      verbose: options.verbose ?? false,
      onProgress: (line) => io.err(`gym: ${line}`),
      ...(cli.telemetry === undefined ? {} : { telemetry: cli.telemetry }),
      ...(options.stopSignal === undefined ? {} : { signal: options.stopSignal }),
    });
    // servers and this process flush at the same time: with a dead collector each waits its full timeout
    let closing: Promise<void> | undefined;
    const close = (): Promise<void> =>
      (closing ??= (async () => {
        await Promise.all([env.stop(), cli.close()]);
        const reports = [...env.servers.flatMap((s) => s.losses), cli.telemetry?.losses()].filter((l) => l !== undefined);
        const lost = describeRunLosses(sumLosses(reports), reports.length);
        if (lost !== undefined) io.err(`gym: ${lost}`);
      })());
    return { env, cli, close };
  } catch (error) {
    await cli.close();
    // a stop request during start-up: the command says which signal and leaves with its code
    throw error;
  } finally {
    options.stopSignal?.removeEventListener('abort', onStop);
  }
}
