/**
 * Test helpers for the config tests: an inline file tree in a temp dir.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';

/** A temp dir holding the given files. */
export interface TempTree {
  dir: string;
  cleanup: () => void;
}

/**
 * Writes `files` (relative path → content) under a new temp dir. A path ending in `/` makes an
 * empty directory.
 */
export function tempTree(files: Record<string, string>): TempTree {
  const dir = mkdtempSync(join(tmpdir(), 'gym-config-'));
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    if (rel.endsWith('/')) {
      mkdirSync(path, { recursive: true });
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A minimal valid model server block as YAML, for trees that need a server. */
export function modelBlock(instance: string, extra = ''): string {
  return `${instance}:\n  responses_api_models:\n    simulated_model:\n      entrypoint: app.ts\n${extra}`;
}

/** A `tree(files)` that writes a {@link tempTree} and returns its dir; every tree is removed after the file's tests. */
export function treesRemovedAfter(): (files: Record<string, string>) => string {
  const trees: TempTree[] = [];
  after(() => trees.forEach((t) => t.cleanup()));
  return (files) => {
    const t = tempTree(files);
    trees.push(t);
    return t.dir;
  };
}
