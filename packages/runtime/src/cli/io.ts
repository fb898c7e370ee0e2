/**
 * The CLI's output: results to stdout, progress and diagnostics to stderr. Commands write through
 * this, so tests can capture it.
 * @module
 */
import { safeWrite } from '@gym/server/internal/server-process/stdio-guard.js';

import { scrubSecrets } from '@gym/server/internal/config/secret-scrub.js';

/** Where a command writes. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** True when stdout is a terminal (colour, progress bars). */
  isTty: boolean;
}

/** The process's own stdout and stderr; a closed one (`gym … | head -1`) is skipped, never fatal (`server-process/stdio-guard.ts`). */
export const PROCESS_IO: CliIo = {
  out: (line) => safeWrite(process.stdout, `${scrubSecrets(line)}\n`),
  err: (line) => safeWrite(process.stderr, `${scrubSecrets(line)}\n`),
  isTty: process.stdout.isTTY === true,
};
