/**
 * Whether a build is current: its record (the `.tsbuildinfo` file `tsc -b` writes, or touches, on
 * every build) is at least as new as each TypeScript source it was built from. Gym runs compiled
 * JavaScript only while it is, so a source edited (or checked out) since the last `npm run build`
 * runs as written, through tsx, instead of the old build running in its place.
 * @module
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Folders that hold no build input: tests, installed packages, build output. */
const NOT_INPUT = new Set(['node_modules', 'dist', 'test', 'test-support']);

/** True when `record` exists and no source under `sourceDirs` (tests aside) is newer; a missing folder has no sources. */
export function isBuildCurrent(record: string, sourceDirs: readonly string[]): boolean {
  const present = sourceDirs.filter((dir) => existsSync(dir));
  if (present.length === 0) return true;
  let built: number;
  try {
    built = statSync(record).mtimeMs;
  } catch {
    return false;
  }
  return !present.some((dir) => hasSourceNewerThan(dir, built));
}

function hasSourceNewerThan(dir: string, time: number): boolean {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!NOT_INPUT.has(entry.name) && hasSourceNewerThan(path, time)) return true;
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && statSync(path).mtimeMs > time) {
      return true;
    }
  }
  return false;
}
