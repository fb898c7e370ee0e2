/**
 * The environment start shared by `gym env start` and `gym eval run`: a log dir, the run's telemetry
 * (checked, written into the servers' environment, set up for this process), then the servers.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { createSecretScrubber, secretValuesOf, setProcessScrubber } from '../config/secret-scrub.js';
import type { ResolvedConfig } from '../config/types.js';
import { createRunLogDir } from '../orchestrator/log-dir.js';
import { startEnvironment } from '../orchestrator/start-environment.js';
import type { RunningEnvironment } from '../orchestrator/start-environment.js';
import { setUpCliTelemetry } from '../telemetry/cli-telemetry.js';
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
}

/** A running environment and the telemetry of this process; `close()` stops both. */
export interface CliEnvironment {
  env: RunningEnvironment;
  cli: CliTelemetry;
  close(): Promise<void>;
}

/** Starts the environment; on failure, shuts the telemetry down again before rethrowing. */
export async function startCliEnvironment(options: CliEnvironmentOptions, io: CliIo): Promise<CliEnvironment> {
  // this process reads every server's secrets: what it prints or writes is scrubbed of them too
  setProcessScrubber(createSecretScrubber(secretValuesOf(options.config.raw)));
  // created only once the telemetry settings passed their check, so a refused start leaves nothing
  let logDir: string | undefined;
  const ensureLogDir = (): string => {
    logDir ??= options.logDir ?? createRunLogDir(options.cwd);
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
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
    });
    // servers and this process flush at the same time: with a dead collector each waits its full timeout
    return { env, cli, close: async () => void (await Promise.all([env.stop(), cli.close()])) };
  } catch (error) {
    await cli.close();
    throw error;
  }
}
