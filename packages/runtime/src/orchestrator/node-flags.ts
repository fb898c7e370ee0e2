/**
 * How gym starts a Node process. Compiled (the CLI running from `dist/`, as `bin/gym.mjs` starts it
 * when the build is current) a process needs no flag, unless it loads a TypeScript file of a user's;
 * from the TypeScript sources every process runs through tsx, resolving our packages to their
 * sources (the `source` export condition).
 * @module
 */

/** True when this process runs our TypeScript sources (through tsx) rather than the compiled `dist/`. */
export const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * Node flags that run `.ts` files through tsx and resolve our packages to their sources
 * (the `source` export condition). tsx is resolved here, so a child started in any directory
 * finds the same copy.
 */
export function typescriptNodeFlags(): string[] {
  return ['--conditions=source', ...typescriptLoaderFlags()];
}

/** Node flags that make a child able to load a user's `.ts` file: tsx, and our packages as compiled. */
export function typescriptLoaderFlags(): string[] {
  return ['--import', import.meta.resolve('tsx')];
}

/** True for a file Node cannot load without a loader. */
export function isTypeScript(file: string): boolean {
  return /\.[cm]?tsx?$/.test(file);
}

/** Flags for a child running one of our modules that loads `files`: as this process runs, plus a loader when one of them needs it. */
export function nodeFlagsLoading(...files: string[]): string[] {
  if (FROM_SOURCE) return typescriptNodeFlags();
  return files.some(isTypeScript) ? typescriptLoaderFlags() : [];
}
