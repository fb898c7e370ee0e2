/**
 * How gym starts a Node process that runs TypeScript sources directly (no build step).
 * @module
 */

/**
 * Node flags that run `.ts` files through tsx and resolve our packages to their sources
 * (the `source` export condition). tsx is resolved here, so a child started in any directory
 * finds the same copy.
 */
export function typescriptNodeFlags(): string[] {
  return ['--conditions=source', '--import', import.meta.resolve('tsx')];
}
