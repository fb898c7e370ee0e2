/**
 * The environment start shared by `gym env start` and `gym eval run`: a log dir, the run's telemetry
 * (checked, written into the servers' environment, set up for this process), then the servers.
 * @module
 */
import { mkdirSync } from 'node:fs';
import type { ResolvedConfig } from '../config/types.js';
import { createRunLogDir } from '../orchestrator/log-dir.js';
import { startEnvironment } from '../orchestrator/start-environment.js';
import type { RunningEnvironment } from '../orchestrator/start-environment.js';
import { setUpCliTelemetry } from '../telemetry/cli-telemetry.js';
import { describeRunLosses, sumLosses } from '../telemetry/loss-report.js';
import type { CliTelemetry } from '../telemetry/cli-telemetry.js';
import type { CliIo } from './io.js';

/** Options of {@link startCliEnvironment}. */
export interface CliEnvironmentOptions {
  config: ResolvedConfig;
  roots: readonly string[];
  /** Default `.gym/logs/<time>` under `cwd`. */
  logDir?: string;
  cwd?: string;
  role: 'orchestrator' | 'collector';
  showTelemetry?: boolean;
  /** A stop request (Ctrl-C, SIGTERM, SIGHUP) during start-up: stop what started and reject. */
  stopSignal?: AbortSignal;
}

/** A running environment and the telemetry of this process; `close()` stops both. */
export interface CliEnvironment {
  env: RunningEnvironment;
  cli: CliTelemetry;
  close(): Promise<void>;
}

/** Starts the environment; on failure, shuts the telemetry down again before rethrowing. */
export async function startCliEnvironment(options: CliEnvironmentOptions, io: CliIo): Promise<CliEnvironment> {
  // created only once the telemetry settings passed their check, so a refused start leaves nothing
  let logDir: string | undefined;
  const ensureLogDir = (): string => {
    logDir ??= options.logDir ?? createRunLogDir(options.cwd);
    mkdirSync(logDir, { recursive: true });
    return logDir;
  };
  const cli = await setUpCliTelemetry({ block: options.config.telemetry, logDir: ensureLogDir, role: options.role });
  if (cli.runId !== undefined) {
    const exporter = cli.env['NEMO_GYM_OTEL_EXPORTER'] ?? cli.env['NEMO_LENS_EXPORTER'] ?? 'otlp';
    io.err(`gym: telemetry on (run id ${cli.runId}, exporter ${exporter})${cli.telemetry === undefined ? ' but not available in this process' : ''}`);
  }
  try {
    const env = await startEnvironment({
      config: options.config,
      roots: options.roots,
      logDir: ensureLogDir(),
      env: cli.env,
      echoTelemetry: options.showTelemetry ?? false,
      onProgress: (line) => io.err(`gym: ${line}`),
      ...(cli.telemetry === undefined ? {} : { telemetry: cli.telemetry }),
      ...(options.stopSignal === undefined ? {} : { stopSignal: options.stopSignal }),
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
    throw error;
  }
}
