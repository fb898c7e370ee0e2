/**
 * `{type, name}` references between server instances, and checking them.
 * @module
 */
import { ConfigUnknownReferenceError } from './errors.js';
import { closeMatches } from './suggest.js';
import { formatPath, isMap, walkTree } from './tree.js';
import type { KeyPath } from './tree.js';
import type { ServerRef, ServerType } from './types.js';
import { SERVER_TYPES } from './types.js';

/** A server as far as references care. */
export interface ReferenceTarget {
  instanceName: string;
  serverType: ServerType;
  config: Record<string, unknown>;
}

/** A reference found inside a server's fields. */
export interface FoundReference {
  /** Instance holding the reference. */
  from: string;
  /** Path of the reference inside the instance's field map, e.g. `resources_server`. */
  field: string;
  ref: ServerRef;
}

/** True when `value` is a map with `type` naming a server type and a string `name`. */
export function isServerRef(value: unknown): value is ServerRef {
  return isMap(value) && typeof value['name'] === 'string' && (SERVER_TYPES as readonly unknown[]).includes(value['type']);
}

/**
 * Every `{type, name}` reference in each server's fields, at any depth (lists included: an agent
 * may list several resources servers).
 */
export function findServerRefs(servers: readonly ReferenceTarget[]): FoundReference[] {
  const out: FoundReference[] = [];
  for (const server of servers) {
    walkTree(server.config, (path: KeyPath, value) => {
      if (isServerRef(value)) out.push({ from: server.instanceName, field: formatPath(path), ref: { type: value.type, name: value.name } });
    });
  }
  return out;
}

/**
 * Checks every reference against the declared instances.
 * @throws {ConfigUnknownReferenceError} listing each bad reference with "did you mean" suggestions
 * among instances of the referenced type, or the instances that exist.
 */
export function checkServerRefs(servers: readonly ReferenceTarget[]): void {
  const byName = new Map(servers.map((s) => [s.instanceName, s.serverType]));
  const problems: string[] = [];
  for (const { from, field, ref } of findServerRefs(servers)) {
    const actual = byName.get(ref.name);
    if (actual === ref.type) continue;
    const head = `server instance '${from}', field '${field}' references ${ref.type}/'${ref.name}'`;
    if (actual !== undefined) {
      problems.push(`${head}, but '${ref.name}' is a ${actual} instance. Fix the reference's type or name.`);
      continue;
    }
    const sameType = servers.filter((s) => s.serverType === ref.type).map((s) => s.instanceName);
    const near = closeMatches(ref.name, sameType);
    const hint = near.length > 0 ? `Did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : `Declared ${ref.type} instances: ${sameType.length > 0 ? sameType.join(', ') : '(none)'}.`;
    problems.push(`${head}, which is not declared in the merged config. ${hint}`);
  }
  if (problems.length === 1) throw new ConfigUnknownReferenceError(`In ${problems[0]}`);
  if (problems.length > 1) {
    throw new ConfigUnknownReferenceError(`${problems.length} server references are broken:\n${problems.map((p) => `  - in ${p}`).join('\n')}`);
  }
}
