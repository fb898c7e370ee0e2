/**
 * Reading environment variables the way lens does everywhere: trimmed, empty means unset.
 * @module
 */
import { LensConfigError } from './errors.js';

/** An environment map, `process.env` by default; injectable for tests. */
export type Env = Readonly<Record<string, string | undefined>>;

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);
/** Spellings accepted for booleans, as listed in error messages. */
export const BOOLEAN_SPELLINGS = ['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off'] as const;

/** The trimmed value of `name`, or `undefined` when it is unset or blank. */
export function readEnv(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const value = raw.trim();
  return value === '' ? undefined : value;
}

/**
 * Parses a boolean spelling (`1/true/yes/on`, `0/false/no/off`, any case).
 * @throws LensConfigError naming `variable` and the accepted spellings.
 */
export function parseBoolean(variable: string, value: string): boolean {
  const lower = value.trim().toLowerCase();
  if (TRUE.has(lower)) return true;
  if (FALSE.has(lower)) return false;
  throw new LensConfigError(variable, value, BOOLEAN_SPELLINGS);
}
