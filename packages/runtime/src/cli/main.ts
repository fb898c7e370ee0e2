/**
 * The `gym` CLI entry point and the only place that decides the exit code:
 * `ExitError` → its code (128 + n after a stop signal, `cli/stop-requests.ts`); a usage error
 * (unknown flag or command, missing argument) → 2; `GymUserError` → 2 with the message only;
 * `GymUpstreamError` → 1 with the message only; anything else → 1 with the stack and a request to
 * report it. A closed stdout or stderr never ends a command (`server-process/stdio-guard.ts`).
 * @module
 */
import { CommanderError } from 'commander';
import { ExitError, GymUpstreamError, GymUserError } from '@gym/server/internal/errors.js';
import { guardStdio } from '@gym/server/internal/server-process/stdio-guard.js';
import { PROCESS_IO } from './io.js';
import { buildProgram } from './program.js';

async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram(PROCESS_IO).exitOverride().parseAsync(argv);
    // the `gym trace` commands report their outcome through process.exitCode
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof ExitError) return error.exitCode;
    // commander exits 0 for --help and --version; every other exit of its is a usage error
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof GymUserError) {
      PROCESS_IO.err(`gym: ${error.message}`);
      return 2;
    }
    // another process failed (a model endpoint that never answered): a failure, not a bug of ours
    if (error instanceof GymUpstreamError) {
      PROCESS_IO.err(`gym: ${error.message}`);
      return 1;
    }
    PROCESS_IO.err(`gym: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    PROCESS_IO.err('This is a bug in gym; please report it with the command you ran.');
    return 1;
  }
}

guardStdio();
process.exitCode = await main(process.argv);
// Everything the command owns is stopped and flushed by now. Leave explicitly: an exporter still
// retrying an unreachable collector, or the wrapper's liveness channel, must not hold the process.
const leave = () => process.exit();
setTimeout(leave, 1000);
process.stdout.write('', () => process.stderr.write('', leave));
