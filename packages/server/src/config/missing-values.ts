/**
 * Detecting `???` (OmegaConf MISSING) values left after merging and interpolation.
 * @module
 */
import { ConfigMissingValueError } from './errors.js';
import { MISSING } from './interpolation.js';
import { formatPath, walkTree } from './tree.js';
import type { Provenance } from './provenance.js';
import type { ConfigMap } from './types.js';

/** Dotted paths (`a.b`, `a.list[0]`) of every value equal to `???`, in tree order. */
export function collectMissingValues(tree: ConfigMap): string[] {
  const out: string[] = [];
  walkTree(tree, (path, value) => {
    if (value === MISSING) out.push(formatPath(path));
  });
  return out;
}

/**
 * Throws one error listing every `???` value, each with the file it came from where known, and
 * how to set it.
 * @throws {ConfigMissingValueError}
 */
export function assertNoMissingValues(tree: ConfigMap, provenance?: Provenance): void {
  const paths: (string | number)[][] = [];
  walkTree(tree, (path, value) => {
    if (value === MISSING) paths.push([...path]);
  });
  if (paths.length === 0) return;
  const names = paths.map((p) => formatPath(p));
  const lines = paths.map((p, i) => `  - ${names[i]}${provenance?.describe(p) ?? ''}`);
  const examples = names.slice(0, 3).map((n) => `  ++${n}=<value>`);
  throw new ConfigMissingValueError(
    `${paths.length} required config value(s) are unset (still '???') after merging:\n${lines.join('\n')}\n` +
      `Set each one in env.yaml, in a config file, or on the command line, e.g.:\n${examples.join('\n')}`,
    names,
  );
}
