/**
 * Each server process gets only the secrets of its own block: the config it receives has every
 * other secret-looking value replaced by `[REDACTED]` (interpolation already copied a top-level
 * `policy_api_key` into the blocks that use it). And when that config is too large for an
 * environment variable, the file written for it holds no secret at all: the server's own secrets
 * travel in the environment beside it.
 * @module
 */
import { isSecretKey, redactSecrets } from './redact.js';
import { isMap } from './tree.js';
import type { KeyPath } from './tree.js';
import type { ConfigMap } from './types.js';

/** One secret value of a block, by its path in the config tree. */
export interface PlacedSecret {
  path: KeyPath;
  value: unknown;
}

/** `tree` with every secret outside the top-level block `instanceName` redacted. `tree` is not modified. */
export function configForServer(tree: ConfigMap, instanceName: string): ConfigMap {
  const out: ConfigMap = {};
  for (const [key, value] of Object.entries(tree)) out[key] = key === instanceName ? value : redactSecrets({ [key]: value })[key];
  return out;
}

/** The secret values inside `tree[instanceName]`, with their paths. */
export function ownSecrets(tree: ConfigMap, instanceName: string): PlacedSecret[] {
  const found: PlacedSecret[] = [];
  const visit = (node: unknown, path: KeyPath) => {
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, [...path, i]));
    else if (isMap(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (!isMap(value) && isSecretKey(key)) {
          if (value !== null) found.push({ path: [...path, key], value });
        } else visit(value, [...path, key]);
      }
    }
  };
  visit(tree[instanceName], [instanceName]);
  return found;
}

/** Puts `secrets` back at their paths in `tree` (modified in place); a path no longer there is skipped. */
export function restoreSecrets(tree: ConfigMap, secrets: readonly PlacedSecret[]): void {
  for (const { path, value } of secrets) {
    let node: unknown = tree;
    for (const seg of path.slice(0, -1)) node = isMap(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[seg] : undefined;
    const last = path[path.length - 1];
    if (last !== undefined && (isMap(node) || Array.isArray(node))) (node as Record<string | number, unknown>)[last] = value;
  }
}
