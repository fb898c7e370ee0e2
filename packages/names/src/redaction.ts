/**
 * The marker a hidden value is written as, wherever gym hides one: span attributes (`@gym/lens`),
 * config dumps, errors, logs, results and capture files (`@gym/runtime`). One string, so a reader
 * (or a test) looks for one thing.
 * @module
 */

/** What a redacted value becomes. */
export const REDACTED = '[REDACTED]';
