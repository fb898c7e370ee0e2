/**
 * Where relative config paths are looked up: `--search-dir` roots, then `NEMO_GYM_EXTRA_ROOTS`,
 * then the root dir. The first root holding the file wins.
 * @module
 */
import { existsSync } from 'node:fs';
import { delimiter, isAbsolute, resolve } from 'node:path';

/** Name of the variable holding extra roots, separated by the OS path delimiter. */
export const EXTRA_ROOTS_ENV = 'NEMO_GYM_EXTRA_ROOTS';

/**
 * Builds the ordered, de-duplicated list of absolute search roots. Relative search dirs resolve
 * against `rootDir`.
 */
export function searchRoots(rootDir: string, searchDirs: readonly string[] = [], env: Readonly<Record<string, string | undefined>> = {}): string[] {
  const fromEnv = (env[EXTRA_ROOTS_ENV] ?? '').split(delimiter).filter((d) => d.trim() !== '');
  const roots = [...searchDirs, ...fromEnv].map((d) => resolve(rootDir, d));
  roots.push(resolve(rootDir));
  return [...new Set(roots)];
}

/** Result of looking a path up in the search roots. */
export interface PathLookup {
  /** Absolute path of the first existing candidate, or `undefined`. */
  found: string | undefined;
  /** Every candidate tried, in order (for error messages). */
  tried: string[];
}

/** Resolves `entry` (absolute, or relative to each root in turn); first existing candidate wins. */
export function lookupPath(entry: string, roots: readonly string[]): PathLookup {
  const tried = isAbsolute(entry) ? [entry] : roots.map((root) => resolve(root, entry));
  return { found: tried.find((p) => existsSync(p)), tried };
}
