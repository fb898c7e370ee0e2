/**
 * Where a run's logs go: `.gym/logs/<UTC timestamp>/` under the working directory, with
 * `.gym/logs/latest` pointing at the newest and a run manifest (`.gym-run`, its start time), so
 * `gym trace` finds the last run without arguments, by when it started. Created 0700: logs may
 * hold prompts, outputs and error text.
 * @module
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_MANIFEST_FILE } from '@gym/names';
import type { RunManifest } from '@gym/names';

/** The directory holding every run's log dir. */
export function logsRoot(cwd: string = process.cwd()): string {
  return join(cwd, '.gym', 'logs');
}

/** Creates a fresh log dir for a run and points `latest` at it. */
export function createRunLogDir(cwd: string = process.cwd(), now: Date = new Date()): string {
  const root = logsRoot(cwd);
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let dir = join(root, stamp);
  for (let n = 2; ; n++) {
    try {
      mkdirSync(dir, { recursive: false, mode: 0o700 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') mkdirSync(root, { recursive: true, mode: 0o700 });
      else if ((error as NodeJS.ErrnoException).code === 'EEXIST') dir = join(root, `${stamp}-${n}`);
      else throw error;
    }
  }
  try {
    const manifest: RunManifest = { started_at: now.toISOString() };
    writeFileSync(join(dir, RUN_MANIFEST_FILE), `${JSON.stringify(manifest)}\n`, { mode: 0o600 });
  } catch {
    // without it the directory's name still says when the run started
  }
  const latest = join(root, 'latest');
  try {
    rmSync(latest, { force: true });
    symlinkSync(dir.slice(root.length + 1), latest);
  } catch {
    // a missing `latest` link only costs convenience
  }
  return dir;
}
