/**
 * What a command writes to, and the wrapper that turns user errors into exit code 2.
 * @module
 */
import { TraceUserError } from '../errors.js';

/** Where a command writes: results to `write` (stdout), diagnostics and progress to `error` (stderr). */
export interface CommandOutput {
  write(text: string): void;
  error(text: string): void;
  /** True when `error` goes to a terminal (progress is only shown then). */
  errorIsTTY?: boolean;
}

/** Output formats shared by the commands. */
export type OutputFormat = 'text' | 'json' | 'markdown';

/** A {@link CommandOutput} over the process's stdout and stderr. */
export function processOutput(): CommandOutput {
  return {
    write: (t) => void process.stdout.write(t),
    error: (t) => void process.stderr.write(t),
    errorIsTTY: process.stderr.isTTY === true,
  };
}

/**
 * Runs a command body; a {@link TraceUserError} is printed (message only) and becomes its exit
 * code (2). Anything else propagates: it is a bug, and the CLI main prints the stack.
 */
export async function runCommand(out: CommandOutput, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof TraceUserError) {
      out.error(`error [${err.code}]: ${err.message}\n`);
      return err.exitCode;
    }
    throw err;
  }
}
