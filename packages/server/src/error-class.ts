/**
 * Error classes built from the rows of the runtime's table (`error-codes.ts`), as fastify's
 * `createError`: the row's kind picks the base class, so a code cannot be raised as the wrong kind,
 * and a row's message template is filled by {@link gymMessage}.
 * @module
 */
import { GYM_ERRORS, formatMessage } from './error-codes.js';
import type { ErrorKind, GymErrorCode } from './error-codes.js';
import { GymError, GymUpstreamError, GymUserError } from './errors.js';
import type { GymErrorOptions } from './errors.js';

const BASES = { user: GymUserError, upstream: GymUpstreamError, caller: GymError } as const;

type Kind<C extends GymErrorCode> = (typeof GYM_ERRORS)[C]['kind'];
type BaseOf<K extends ErrorKind> = K extends 'user' ? GymUserError : K extends 'upstream' ? GymUpstreamError : GymError;

/** The class of `code`: extends the base its kind names; instances carry `code`, the message and an optional `cause`. */
export function gymErrorClass<C extends GymErrorCode>(code: C): new (message: string, options?: GymErrorOptions) => BaseOf<Kind<C>> {
  const Base: typeof GymError = BASES[GYM_ERRORS[code].kind];
  return class extends Base {
    constructor(message: string, options?: GymErrorOptions) {
      super(code, message, options);
    }
  } as unknown as new (message: string, options?: GymErrorOptions) => BaseOf<Kind<C>>;
}

/** The codes whose row has a message template. */
type TemplatedCode = { [C in GymErrorCode]: (typeof GYM_ERRORS)[C] extends { message: string } ? C : never }[GymErrorCode];

/** The message of `code`'s row with its `%s` filled by `args` in order. */
export function gymMessage(code: TemplatedCode, ...args: unknown[]): string {
  return formatMessage(GYM_ERRORS[code].message, args);
}
