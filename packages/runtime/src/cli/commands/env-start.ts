/**
 * `gym env start`: resolve the config, start the head server and every server, serve until
 * Ctrl-C (or until a server dies), then stop everything.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { loadConfig } from '../../config/load.js';
import { searchRoots } from '../../config/search-roots.js';
import { ExitError } from '../../errors.js';
import { createRunLogDir } from '../../orchestrator/log-dir.js';
import { startEnvironment } from '../../orchestrator/start-environment.js';
import { setUpCliTelemetry } from '../../telemetry/cli-telemetry.js';
import { toLoadConfigOptions } from '../config-options.js';
import type { ConfigFlags } from '../config-options.js';
import type { CliIo } from '../io.js';

/** Flags of `gym env start`. */
export interface EnvStartFlags extends ConfigFlags {
  logDir?: string;
  showTelemetry?: boolean;
}

/** Runs `gym env start`. Resolves when the environment has been stopped. */
export async function envStart(flags: EnvStartFlags, overrides: string[], io: CliIo): Promise<void> {
  const options = toLoadConfigOptions(flags, overrides);
  const config = await loadConfig(options);
  for (const warning of config.warnings) io.err(`warning: ${warning}`);
  const logDir = flags.logDir ?? createRunLogDir();
  mkdirSync(logDir, { recursive: true });
  const cli = await setUpCliTelemetry({ block: config.telemetry, logDir, role: 'orchestrator' });
  if (cli.runId !== undefined) io.err(`gym: telemetry on (run id ${cli.runId}, exporter ${cli.env['NEMO_GYM_OTEL_EXPORTER'] ?? cli.env['NEMO_LENS_EXPORTER'] ?? 'otlp'})${cli.telemetry === undefined ? ' but not available in this process' : ''}`);
  let env;
  try {
    env = await startEnvironment({
      config,
      roots: searchRoots(options.rootDir, options.selectors?.searchDirs, process.env),
      logDir,
      env: cli.env,
      echoTelemetry: flags.showTelemetry ?? false,
      onProgress: (line) => io.err(`gym: ${line}`),
      ...(cli.telemetry === undefined ? {} : { telemetry: cli.telemetry }),
    });
  } catch (error) {
    await cli.close();
    throw error;
  }
  for (const s of env.servers) io.out(`${s.display.process_name.padEnd(32)} ${s.display.server_type.padEnd(22)} ${s.display.url}`);
  io.out(`head server: ${env.head.address.url}   (Ctrl-C to stop)`);

  const stopSignal = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  const outcome = await Promise.race([stopSignal.then((signal) => ({ signal })), env.firstExit.then((exit) => ({ exit }))]);
  if ('signal' in outcome) io.err(`gym: ${outcome.signal} received, stopping ${env.servers.length} servers`);
  else io.err(`gym: server '${outcome.exit.name}' exited (${outcome.exit.code}); stopping the others`);
  await env.stop();
  await cli.close();
  io.err(`gym: stopped; logs in ${env.logDir}`);
  if ('exit' in outcome) throw new ExitError(1);
}
