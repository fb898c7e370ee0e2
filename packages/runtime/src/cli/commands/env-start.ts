/**
 * `gym env start`: resolve the config, start the head server and every server, serve until
 * Ctrl-C, SIGTERM or SIGHUP (or until a server dies), then stop everything and exit 128 + the
 * signal's number.
 * @module
 */
import { outputWidth } from '@gym/trace/cli';
import { loadConfig } from '@gym/server/internal/config/load.js';
import { searchRoots } from '@gym/server/internal/config/search-roots.js';
import { ExitError } from '@gym/server/internal/errors.js';
import { argvSecretWarnings, toLoadConfigOptions } from '../config-options.js';
import { serverTableLines } from '../server-table.js';
import { startCliEnvironment } from '../start-cli-environment.js';
import { abandonedStopLine, exitStopped, receivedText, unlessAbandoned, watchStopRequests } from '../stop-requests.js';
import type { ConfigFlags } from '../config-options.js';
import type { CliIo } from '../io.js';

/** Flags of `gym env start`. */
export interface EnvStartFlags extends ConfigFlags {
  logDir?: string;
  showTelemetry?: boolean;
  verbose?: boolean;
}

/** Runs `gym env start`. Resolves when the environment has been stopped. */
export async function envStart(flags: EnvStartFlags, overrides: string[], io: CliIo): Promise<void> {
  const requests = watchStopRequests();
  try {
    const options = toLoadConfigOptions(flags, overrides);
    const config = await loadConfig(options);
    for (const warning of [...argvSecretWarnings(flags, overrides), ...config.warnings]) io.err(`warning: ${warning}`);
    const started = await unlessAbandoned(
      requests,
      startCliEnvironment(
        {
          config,
          roots: searchRoots(options.rootDir, options.selectors?.searchDirs, process.env),
          role: 'orchestrator',
          showTelemetry: flags.showTelemetry ?? false,
          verbose: flags.verbose ?? false,
          stopSignal: requests.stop,
          ...(flags.logDir === undefined ? {} : { logDir: flags.logDir }),
        },
        io,
      ),
    );
    if (started === 'abandoned') {
      io.err(abandonedStopLine(requests));
      exitStopped(requests.received()!, io);
    }
    const { env, close } = started;
    const table = env.servers.map((s) => ({ name: s.display.process_name, type: s.display.server_type, url: s.display.url }));
    for (const line of serverTableLines(table, outputWidth())) io.out(line);
    io.out(`head server: ${env.head.address.url}   (Ctrl-C to stop)`);

    const stopped = new Promise<void>((resolve) => {
      if (requests.stop.aborted) resolve();
      requests.stop.addEventListener('abort', () => resolve(), { once: true });
    });
    const outcome = await Promise.race([stopped.then(() => ({ signal: requests.received()! })), env.firstExit.then((exit) => ({ exit }))]);
    if ('signal' in outcome) io.err(`gym: ${receivedText(outcome.signal)}, stopping ${env.servers.length} servers`);
    else io.err(`gym: server '${outcome.exit.name}' exited (${outcome.exit.code}); stopping the others`);
    if ((await unlessAbandoned(requests, close())) === 'abandoned') io.err(abandonedStopLine(requests));
    else io.err(`gym: stopped; logs in ${env.logDir}`);
    if ('exit' in outcome) throw new ExitError(1);
    exitStopped(outcome.signal, io);
  } catch (error) {
    // a stop request during start-up ends the start; it is not an error of its own
    const signal = requests.received();
    if (signal !== undefined && !(error instanceof ExitError)) exitStopped(signal, io);
    throw error;
  } finally {
    requests.dispose();
  }
}
