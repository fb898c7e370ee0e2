/**
 * What a command writes to, and the wrapper that turns user errors into exit code 2.
 * @module
 */
import { TraceUserError } from '../errors.js';
import { terminalSafe, terminalSafeKeepingCr } from '../render/terminal-safe.js';

/** Where a command writes: results to `write` (stdout), diagnostics and progress to `error` (stderr). */
export interface CommandOutput {
  write(text: string): void;
  error(text: string): void;
  /** True when `error` goes to a terminal (progress is only shown then). */
  errorIsTTY?: boolean;
}

/** Output formats shared by the commands. */
export type OutputFormat = 'text' | 'json' | 'markdown';

/**
 * A {@link CommandOutput} over the process's stdout and stderr. What it prints came in large part
 * from files (names, messages, values), so control characters are shown escaped, never obeyed;
 * `rawWrite` is for a command that draws the screen itself (`top`) and escapes what it draws.
 */
export function processOutput(options: { rawWrite?: boolean } = {}): CommandOutput {
  return {
    write: options.rawWrite === true ? (t) => void process.stdout.write(t) : (t) => void process.stdout.write(terminalSafe(t)),
    error: (t) => void process.stderr.write(terminalSafeKeepingCr(t)),
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
