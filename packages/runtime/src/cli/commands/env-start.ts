/**
 * `gym env start`: resolve the config, start the head server and every server, serve until
 * Ctrl-C (or until a server dies), then stop everything.
 * @module
 */
import { loadConfig } from '../../config/load.js';
import { searchRoots } from '../../config/search-roots.js';
import { ExitError } from '../../errors.js';
import { argvSecretWarnings, toLoadConfigOptions } from '../config-options.js';
import { startCliEnvironment } from '../start-cli-environment.js';
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
  for (const warning of [...argvSecretWarnings(flags, overrides), ...config.warnings]) io.err(`warning: ${warning}`);
  const { env, close } = await startCliEnvironment(
    { config, roots: searchRoots(options.rootDir, options.selectors?.searchDirs, process.env), role: 'orchestrator', showTelemetry: flags.showTelemetry ?? false, ...(flags.logDir === undefined ? {} : { logDir: flags.logDir }) },
    io,
  );
  for (const s of env.servers) io.out(`${s.display.process_name.padEnd(32)} ${s.display.server_type.padEnd(22)} ${s.display.url}`);
  io.out(`head server: ${env.head.address.url}   (Ctrl-C to stop)`);

  const stopSignal = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  const outcome = await Promise.race([stopSignal.then((signal) => ({ signal })), env.firstExit.then((exit) => ({ exit }))]);
  if ('signal' in outcome) io.err(`gym: ${outcome.signal} received, stopping ${env.servers.length} servers`);
  else io.err(`gym: server '${outcome.exit.name}' exited (${outcome.exit.code}); stopping the others`);
  await close();
  io.err(`gym: stopped; logs in ${env.logDir}`);
  if ('exit' in outcome) throw new ExitError(1);
}
