/**
 * Applying parsed CLI overrides to the merged config tree.
 * @module
 */
import { BUILTIN_KEYS } from './builtin-keys.js';
import { ConfigOverrideError } from './errors.js';
import { closeMatches } from './suggest.js';
import { cloneTree, formatPath, isMap, mergeTrees } from './tree.js';
import type { ConfigOverride } from './override-parse.js';
import type { Provenance } from './provenance.js';
import type { ConfigMap } from './types.js';

/**
 * Applies overrides in order to a copy of `tree` (files + `env.yaml` already merged):
 * - `+k=v` sets `k`; it is an error only if an earlier override already set `k` (Hydra's rule
 *   against its empty primary config, which is what gym users meet);
 * - `++k=v` sets `k` unconditionally;
 * - `k=v` requires `k` to exist already, or to be a key with a built-in default (`head_server.port`);
 * - `~k` deletes `k`, which must exist.
 * A map value deep-merges into an existing map, as the original's final OmegaConf merge does;
 * lists and scalars replace.
 * @throws {ConfigOverrideError} naming the token and what to write instead.
 */
export function applyOverrides(tree: ConfigMap, overrides: readonly ConfigOverride[], provenance?: Provenance): ConfigMap {
  const out = cloneTree(tree);
  const added = new Set<string>();
  for (const ov of overrides) {
    const key = formatPath(ov.path);
    const parent = parentMap(out, ov);
    const leaf = ov.path[ov.path.length - 1]!;
    const exists = parent !== undefined && Object.hasOwn(parent, leaf);
    if (ov.op === 'add' && added.has(key)) {
      throw new ConfigOverrideError(`Override '${ov.text}': ${key} was already set by an earlier override. Use ++${key}=… to replace it.`);
    }
    if ((ov.op === 'delete' && !exists) || (ov.op === 'set' && !exists && !BUILTIN_KEYS.has(key))) {
      const near = closeMatches(leaf, [...(parent === undefined ? [] : Object.keys(parent)), ...builtinLeaves(ov.path)]);
      const hint = near.length > 0 ? ` Did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : '';
      const fix = ov.op === 'set' ? ` To add it, write +${key}=… (or ++${key}=…).` : '';
      throw new ConfigOverrideError(`Could not ${ov.op === 'set' ? 'override' : 'delete'} '${key}': no such key in the config.${hint}${fix}`);
    }
    const target = parent ?? createParents(out, ov);
    if (ov.op === 'delete') {
      delete target[leaf];
    } else {
      const prev = target[leaf];
      target[leaf] = isMap(prev) && isMap(ov.value) ? mergeTrees(prev, ov.value) : cloneTree(ov.value);
      added.add(key);
    }
    provenance?.record(ov.path, `command-line override '${ov.text}'`);
  }
  return out;
}

/** The last segments of the built-in keys beside `path` (`num_repeats` for `num_repeat`). */
function builtinLeaves(path: readonly string[]): string[] {
  const prefix = path.length === 1 ? '' : `${formatPath(path.slice(0, -1))}.`;
  return [...BUILTIN_KEYS].filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).includes('.')).map((k) => k.slice(prefix.length));
}

/** The map holding the override's last segment, or `undefined` if some ancestor is absent. */
function parentMap(tree: ConfigMap, ov: ConfigOverride): ConfigMap | undefined {
  let node: ConfigMap = tree;
  for (let i = 0; i < ov.path.length - 1; i++) {
    const next = node[ov.path[i]!];
    if (next === undefined) return undefined;
    if (!isMap(next)) throw notAMap(ov, i);
    node = next;
  }
  return node;
}

function createParents(tree: ConfigMap, ov: ConfigOverride): ConfigMap {
  let node: ConfigMap = tree;
  for (let i = 0; i < ov.path.length - 1; i++) {
    const seg = ov.path[i]!;
    const next = node[seg];
    if (next === undefined) node[seg] = {};
    else if (!isMap(next)) throw notAMap(ov, i);
    node = node[seg] as ConfigMap;
  }
  return node;
}

function notAMap(ov: ConfigOverride, i: number): ConfigOverrideError {
  const at = formatPath(ov.path.slice(0, i + 1));
  return new ConfigOverrideError(`Override '${ov.text}': ${at} is not a map, so it has no key '${ov.path[i + 1]}'.`);
}
