/**
 * The `gym` command table. Only declares commands and flags; each action lazily imports
 * `commands/<name>.js`, so `gym env status` never loads the orchestrator.
 * @module
 */
import { Command } from '@commander-js/extra-typings';
import { withConfigFlags } from './config-options.js';
import type { CliIo } from './io.js';

/** Builds the `gym` program writing through `io`. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('gym')
    .description('gym: RL and agent-evaluation environments where one rollout is one distributed trace')
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  const env = program.command('env').description('start, inspect and check an environment');
  withConfigFlags(env.command('start').description('start the head server and every server instance; Ctrl-C stops them'))
    .option('--log-dir <dir>', 'where <instance>.log files go (default .gym/logs/<timestamp>)')
    .option('--show-telemetry', 'echo console telemetry records on the terminal too (they always go to the log files)')
    .action(async (overrides, flags) => (await import('./commands/env-start.js')).envStart(flags, overrides, io));
  env
    .command('status')
    .description("list the running servers of an environment and health-check each")
    .option('--head-url <url>', 'the head server (default http://127.0.0.1:11000)')
    .option('--json', 'machine-readable output')
    .action(async (flags) => (await import('./commands/env-status.js')).envStatus(flags, io));
  withConfigFlags(env.command('resolve').description('print the merged config, secrets redacted')).action(async (overrides, flags) =>
    (await import('./commands/env-resolve.js')).envResolve(flags, overrides, io),
  );
  withConfigFlags(env.command('validate').description('check a config offline: files, interpolation, references, entrypoints')).action(
    async (overrides, flags) => (await import('./commands/env-resolve.js')).envValidate(flags, overrides, io),
  );
  return program as unknown as Command;
}
