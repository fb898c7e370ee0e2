/**
 * What a command writes to, and the wrapper that turns user errors into exit code 2.
 * @module
 */
import { ConversionStopped, TraceUserError } from '../errors.js';

/** Where a command writes: results to `write` (stdout), diagnostics and progress to `error` (stderr). */
export interface CommandOutput {
  write(text: string): void;
  error(text: string): void;
  /** True when `error` goes to a terminal (progress is only shown then). */
  errorIsTTY?: boolean;
}

// Text read from telemetry files (span and service names, status messages, SQL results) printed
// to a terminal: control characters are shown escaped (`\x1b`, `\u202e`) instead of being obeyed,
// so a span named with an escape sequence cannot move the cursor, retitle the window, hide lines
// or plant a link. Newlines and tabs pass, and so does `\r` where a caller draws progress with it.
// (Here rather than in a module of its own: `gym --help` loads this file and no other of trace's.)
// C0 controls but \t and \n (and \r, in the variant below), DEL, the C1 controls, and the bidi
// embeddings, overrides and isolates that reorder what a line shows
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_BUT_CR = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function escape(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
}

/** `text` with every control character shown escaped; unchanged (the same string) when it has none. */
export function terminalSafe(text: string): string {
  CONTROLS.lastIndex = 0;
  return CONTROLS.test(text) ? text.replace(CONTROLS, escape) : text;
}

/** The same, letting `\r` through: for stderr, where progress lines redraw themselves with it. */
export function terminalSafeKeepingCr(text: string): string {
  CONTROLS_BUT_CR.lastIndex = 0;
  return CONTROLS_BUT_CR.test(text) ? text.replace(CONTROLS_BUT_CR, escape) : text;
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
    if (err instanceof ConversionStopped) {
      out.error(`${err.notice}\n`);
      return err.exitCode;
    }
    throw err;
  }
}
