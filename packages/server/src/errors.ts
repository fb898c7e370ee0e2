/**
 * Error classes of the gym runtime.
 *
 * Every error has a stable `code` (`GYM_<AREA>_<PROBLEM>`, never reused) and belongs to one of three
 * kinds, by who must act: the user ({@link GymUserError}), another process ({@link GymUpstreamError})
 * or us ({@link GymInternalError}). Callers switch on `err.code`, never on `instanceof` across
 * packages or processes. Every code of the runtime is a row of its table (`error-codes.ts`: kind,
 * status, message template, docs section); area-specific classes are built from those rows
 * (`error-class.ts`), live next to their area (`config/errors.ts`, `http/errors.ts`, …) and are
 * catalogued in `docs/errors.md`. Server implementations may raise codes of their own.
 * @module
 */
import { GYM_ERRORS } from './error-codes.js';
import type { ErrorSpec } from './error-codes.js';

/** Options accepted by every gym error. */
export interface GymErrorOptions {
  cause?: unknown;
}

/** Base class: a stable `code`, `name` set to the concrete class name. */
export class GymError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options: GymErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }

  /** This error's row of the runtime's table (kind, status, docs), or `undefined` for a code of a server implementation. */
  get spec(): ErrorSpec | undefined {
    return Object.hasOwn(GYM_ERRORS, this.code) ? (GYM_ERRORS as Record<string, ErrorSpec>)[this.code] : undefined;
  }
}

/** The user must fix something: config, flags, input files. The CLI exits 2 with the message only. */
export class GymUserError extends GymError {}

/** Another process (model, resources server, upstream API) failed. */
export class GymUpstreamError extends GymError {}

/** A bug in gym. The CLI prints the stack and asks for a report. */
export class GymInternalError extends GymError {}

/** Thrown to leave the CLI with a given exit code and no further message. */
export class ExitError extends Error {
  readonly exitCode: number;

  constructor(exitCode: number, message = `exit ${exitCode}`) {
    super(message);
    this.exitCode = exitCode;
    this.name = new.target.name;
  }
}
