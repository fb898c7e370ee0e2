/**
 * Small helpers over plain YAML trees (maps, lists, scalars) and their key paths.
 * @module
 */
import type { ConfigMap } from './types.js';

/** A key path: map keys as strings, list indices as numbers. */
export type KeyPath = readonly (string | number)[];

/** True for a plain object (a YAML map), false for lists, null and scalars. */
export function isMap(value: unknown): value is ConfigMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep copy of a YAML tree (maps, lists and scalars only). */
export function cloneTree<T>(value: T): T {
  if (Array.isArray(value)) return (value as unknown[]).map((v) => cloneTree(v)) as T;
  if (isMap(value)) {
    const out: ConfigMap = {};
    for (const [k, v] of Object.entries(value)) out[k] = cloneTree(v);
    return out as T;
  }
  return value;
}

/**
 * Deep-merges `over` into a copy of `base`: maps merge key by key, anything else (lists included)
 * is replaced by the later value, as OmegaConf does. Neither input is modified.
 */
export function mergeTrees(base: ConfigMap, over: ConfigMap): ConfigMap {
  const out: ConfigMap = cloneTree(base);
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    out[key] = isMap(prev) && isMap(value) ? mergeTrees(prev, value) : cloneTree(value);
  }
  return out;
}

/** Merges layers left to right; later layers win. */
export function mergeConfigs(layers: readonly ConfigMap[]): ConfigMap {
  return layers.reduce<ConfigMap>((acc, layer) => mergeTrees(acc, layer), {});
}

/** Formats a key path as `a.b[0].c`. */
export function formatPath(path: KeyPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

/** Reads the node at `path`, or `undefined` when any step is absent. */
export function getAt(tree: unknown, path: KeyPath): unknown {
  let node = tree;
  for (const seg of path) {
    if (typeof seg === 'number' && Array.isArray(node)) node = node[seg];
    else if (isMap(node) && Object.hasOwn(node, String(seg))) node = node[String(seg)];
    else return undefined;
  }
  return node;
}

/** Calls `visit` for every node below `tree` (not `tree` itself), parents before children. */
export function walkTree(tree: unknown, visit: (path: KeyPath, value: unknown) => void, prefix: KeyPath = []): void {
  const entries: [string | number, unknown][] = Array.isArray(tree) ? tree.map((v, i) => [i, v]) : isMap(tree) ? Object.entries(tree) : [];
  for (const [key, value] of entries) {
    const path = [...prefix, key];
    visit(path, value);
    walkTree(value, visit, path);
  }
}
