/**
 * The environment start shared by `gym env start` and `gym eval run`: a log dir, the run's telemetry
 * (checked, written into the servers' environment, set up for this process), then the servers.
 * @module
 */
import { mkdirSync } from 'node:fs';
import type { ResolvedConfig } from '../config/types.js';
import { ExitError } from '../errors.js';
import { StartInterruptedError } from '../orchestrator/wait-ready.js';
import { assertHeadPortFree } from '../orchestrator/head-server.js';
import { createRunLogDir } from '../orchestrator/log-dir.js';
import { assertHasServers, startEnvironment } from '../orchestrator/start-environment.js';
import type { RunningEnvironment } from '../orchestrator/start-environment.js';
import { setUpCliTelemetry } from '../telemetry/cli-telemetry.js';
import { validateTelemetrySettings } from '../telemetry/env.js';
import type { CliTelemetry } from '../telemetry/cli-telemetry.js';
import type { CliIo } from './io.js';

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
  /** Server log records as raw JSON. */
  verbose?: boolean;
}

/** A running environment and the telemetry of this process; `close()` stops both. */
export interface CliEnvironment {
  env: RunningEnvironment;
  cli: CliTelemetry;
  close(): Promise<void>;
}

/** Starts the environment; on failure, shuts the telemetry down again before rethrowing. */
export async function startCliEnvironment(options: CliEnvironmentOptions, io: CliIo): Promise<CliEnvironment> {
  // config errors first, then a busy port: a start that fails either leaves no log dir behind
  // (nor moves `latest` to an empty one)
  assertHasServers(options.config);
  validateTelemetrySettings(options.config.telemetry, process.env);
  await assertHeadPortFree(options.config.head);
  // created only once the telemetry settings passed their check, so a refused start leaves nothing
  let logDir: string | undefined;
  const ensureLogDir = (): string => {
    logDir ??= options.logDir ?? createRunLogDir(options.cwd, options.startedAt);
    mkdirSync(logDir, { recursive: true });
    return logDir;
  };
  const cli = await setUpCliTelemetry({ block: options.config.telemetry, logDir: ensureLogDir, role: options.role });
  if (cli.runId !== undefined) {
    const exporter = cli.env['NEMO_GYM_OTEL_EXPORTER'] ?? cli.env['NEMO_LENS_EXPORTER'] ?? 'otlp';
    io.err(`gym: telemetry on (run id ${cli.runId}, exporter ${exporter})${cli.telemetry === undefined ? ' but not available in this process' : ''}`);
  }
  // Ctrl-C during the readiness waits stops what was started and leaves with 130
  const interrupt = new AbortController();
  const onSigint = () => {
    io.err('gym: interrupted; stopping the servers started so far');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const env = await startEnvironment({
      signal: interrupt.signal,
      config: options.config,
      roots: options.roots,
      logDir: ensureLogDir(),
      env: cli.env,
      echoTelemetry: options.showTelemetry ?? false,
      verbose: options.verbose ?? false,
      onProgress: (line) => io.err(`gym: ${line}`),
      ...(cli.telemetry === undefined ? {} : { telemetry: cli.telemetry }),
    });
    // servers and this process flush at the same time: with a dead collector each waits its full timeout
    return { env, cli, close: async () => void (await Promise.all([env.stop(), cli.close()])) };
  } catch (error) {
    await cli.close();
    if (error instanceof StartInterruptedError) throw new ExitError(130);
    throw error;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
