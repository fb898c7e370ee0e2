/**
 * The CLI's output: results to stdout, progress and diagnostics to stderr. Commands write through
 * this, so tests can capture it.
 * @module
 */

import { scrubSecrets } from '../config/secret-scrub.js';

/** Where a command writes. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** True when stdout is a terminal (colour, progress bars). */
  isTty: boolean;
}

/** The process's own stdout and stderr. */
export const PROCESS_IO: CliIo = {
  out: (line) => void process.stdout.write(`${scrubSecrets(line)}\n`),
  err: (line) => void process.stderr.write(`${scrubSecrets(line)}\n`),
  isTty: process.stdout.isTTY === true,
};
