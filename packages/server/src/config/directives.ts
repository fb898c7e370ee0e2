/**
 * The original's tree directives, applied once after every layer is merged and before
 * interpolation: `${inherit_from:a.b}` / `_inherit_from: a.b` (move a subtree here),
 * `${copy:a.b}` / `_copy: a.b` (copy it), and `_delete_key: "k1, k2"` (drop keys).
 * @module
 */
import { ConfigInvalidError } from './errors.js';
import { cloneTree, formatPath, getAt, isMap, mergeTrees } from './tree.js';
import type { KeyPath } from './tree.js';
import type { ConfigMap } from './types.js';

/** Key of a map whose value is a path to move into that map (local keys overlay it). */
export const INHERIT_FROM_KEY = '_inherit_from';
/** Key of a map whose value is a path to copy into that map (local keys overlay it). */
export const COPY_KEY = '_copy';
/** Key of a map listing (comma-separated) keys to drop from it. */
export const DELETE_KEY_KEY = '_delete_key';

const INHERIT_PREFIX = '${inherit_from:';
const COPY_PREFIX = '${copy:';
/** A chain longer than this (a copy of a copy of …) is a cycle. */
const MAX_CHAIN = 32;

/**
 * Returns a copy of `tree` with every directive applied, in key order, depth first. Sources are
 * read from the tree as merged (before any directive), so the order of keys never changes what a
 * directive takes. `inherit_from` also removes its source, which is how a generic server block
 * serves as a template without starting itself.
 * @throws {ConfigInvalidError} naming the directive's key path when its source path does not
 * exist, or when `_delete_key` names a key the block does not have.
 */
export function applyDirectives(tree: ConfigMap): ConfigMap {
  const frozen = cloneTree(tree);
  const live = cloneTree(tree);
  const problems: string[] = [];
  visitMap(live, [], { live, frozen, problems });
  if (problems.length > 0) {
    throw new ConfigInvalidError(`${problems.length} config directive(s) failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  return live;
}

interface Walk {
  live: ConfigMap;
  frozen: ConfigMap;
  problems: string[];
}

type Parent = ConfigMap | unknown[];

function visitMap(map: ConfigMap, at: KeyPath, walk: Walk): void {
  for (const key of Object.keys(map)) visitEntry(map, key, [...at, key], walk);
}

function visitEntry(parent: Parent, key: string | number, at: KeyPath, walk: Walk, depth = 0): void {
  let value = (parent as Record<string | number, unknown>)[key];
  const pendingDeletes: string[] = [];
  if (isMap(value) && Object.hasOwn(value, DELETE_KEY_KEY)) {
    const names = String(value[DELETE_KEY_KEY])
      .split(',')
      .map((k) => k.trim())
      .filter((k) => k !== '');
    delete value[DELETE_KEY_KEY];
    // keys present now go first; the rest may arrive with an inherited or copied source
    for (const name of names) {
      if (Object.hasOwn(value, name)) delete value[name];
      else pendingDeletes.push(name);
    }
  }
  if (isMap(value)) visitMap(value, at, walk);
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) visitEntry(value, i, [...at, i], walk);

  const directive = readDirective(value);
  // as in the original, a plain block's absent keys are simply not there to delete
  if (directive === undefined) return;
  if (depth > MAX_CHAIN) {
    walk.problems.push(`${formatPath(at)}: directives refer to each other in a cycle`);
    return;
  }
  const source = directive.path.split('.');
  const found = getAt(walk.frozen, source);
  if (found === undefined) {
    walk.problems.push(`${formatPath(at)}: ${directive.name} names '${directive.path}', which is not in the merged config`);
    return;
  }
  if (directive.name === 'inherit_from') {
    // moved, not copied; several blocks may inherit from one source, so it may be gone already
    const holder = getAt(walk.live, source.slice(0, -1));
    if (isMap(holder)) delete holder[source[source.length - 1]!];
  }
  value = overlay(found, directive.local);
  (parent as Record<string | number, unknown>)[key] = value;
  // the source was taken as merged: its own directives apply here (the original leaves them raw)
  if (readDirective(value) !== undefined) visitEntry(parent, key, at, walk, depth + 1);
  else if (isMap(value)) visitMap(value, at, walk);
  value = (parent as Record<string | number, unknown>)[key];
  const absent = pendingDeletes.filter((name) => !(isMap(value) && Object.hasOwn(value, name)));
  for (const name of pendingDeletes) if (isMap(value)) delete value[name];
  if (absent.length > 0) missingDeletes(at, absent, walk);
}

/** The source with the block's own keys over it; a source that is itself a string directive keeps them for its turn. */
function overlay(found: unknown, local: ConfigMap | undefined): unknown {
  if (local === undefined || Object.keys(local).length === 0) return cloneTree(found);
  if (isMap(found)) return mergeTrees(found, local);
  const inner = readDirective(found);
  if (inner !== undefined) return { ...cloneTree(local), [inner.name === 'inherit_from' ? INHERIT_FROM_KEY : COPY_KEY]: inner.path };
  return cloneTree(found);
}

function missingDeletes(at: KeyPath, names: string[], walk: Walk): void {
  walk.problems.push(`${formatPath(at)}: ${DELETE_KEY_KEY} names ${names.map((n) => `'${n}'`).join(', ')}, which the block does not have`);
}

interface Directive {
  name: 'inherit_from' | 'copy';
  path: string;
  /** The block's own keys, laid over the source (map forms only). */
  local?: ConfigMap;
}

function readDirective(value: unknown): Directive | undefined {
  if (typeof value === 'string') {
    if (value.startsWith(INHERIT_PREFIX) && value.endsWith('}')) return { name: 'inherit_from', path: value.slice(INHERIT_PREFIX.length, -1).trim() };
    if (value.startsWith(COPY_PREFIX) && value.endsWith('}')) return { name: 'copy', path: value.slice(COPY_PREFIX.length, -1).trim() };
    return undefined;
  }
  if (!isMap(value)) return undefined;
  for (const [key, name] of [
    [INHERIT_FROM_KEY, 'inherit_from'],
    [COPY_KEY, 'copy'],
  ] as const) {
    if (!Object.hasOwn(value, key)) continue;
    const path = value[key];
    const local = { ...value };
    delete local[key];
    return { name, path: typeof path === 'string' ? path.trim() : String(path), local };
  }
  return undefined;
}
