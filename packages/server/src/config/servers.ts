/**
 * Finding and validating the 3-level server blocks (`instance → server type → implementation →
 * fields`) in a resolved config.
 * @module
 */
import { ConfigInvalidError } from './errors.js';
import { isReservedKey } from './reserved-keys.js';
import { SERVER_SCHEMAS } from './server-schema.js';
import { formatPath, isMap } from './tree.js';
import { describeKind } from './yaml-file.js';
import type { Provenance } from './provenance.js';
import type { KeyPath } from './tree.js';
import type { ConfigMap, ServerType } from './types.js';
import { SERVER_TYPES } from './types.js';

/** A validated server block, before host and port are assigned. */
export interface ServerBlock {
  instanceName: string;
  serverType: ServerType;
  implementation: string;
  /** The inner field map, as validated (digit-string ports are numbers). */
  config: ConfigMap;
}

/** Result of {@link findServerBlocks}. */
export interface FoundServerBlocks {
  servers: ServerBlock[];
  /** Problems of skipped blocks when `error_on_almost_servers: false`. */
  warnings: string[];
}

/**
 * Returns every server block in `tree`, in key order. As in the original, a top-level key is a
 * server only when it is not reserved, its value is a map holding a server-type key, and an
 * implementation under it has an `entrypoint`. A server-shaped block without any `entrypoint`
 * (the original's recipe `env.yaml` files are full of them: settings merged over a benchmark's
 * servers) is not started, and a warning names it. A block with an `entrypoint` that fails
 * validation (an "almost-server") is an error, unless `error_on_almost_servers: false`, which
 * skips it with a warning. Other keys (global knobs such as `policy_base_url`) are ignored.
 * @throws {ConfigInvalidError} listing every problem, each with key path, file and expectation.
 */
export function findServerBlocks(tree: ConfigMap, provenance?: Provenance): FoundServerBlocks {
  const servers: ServerBlock[] = [];
  const problems: string[] = [];
  const withoutEntrypoint: string[] = [];
  for (const [name, value] of Object.entries(tree)) {
    if (isReservedKey(name) || !isMap(value)) continue;
    if (!Object.keys(value).some((k) => (SERVER_TYPES as readonly string[]).includes(k))) continue;
    if (!hasEntrypoint(value)) {
      withoutEntrypoint.push(name);
      continue;
    }
    const issues: string[] = [];
    const block = parseBlock(name, value, (path, msg) => issues.push(`${formatPath(path)}${provenance?.describe(path) ?? ''}: ${msg}`));
    if (block !== undefined && issues.length === 0) servers.push(block);
    problems.push(...issues);
  }
  const notStarted =
    withoutEntrypoint.length === 0
      ? []
      : [`Not starting ${withoutEntrypoint.join(', ')}: server-shaped block(s) without an entrypoint are settings, not servers (as in NeMo Gym). ` + 'Add an entrypoint to start one.'];
  if (problems.length > 0 && tree['error_on_almost_servers'] === false) {
    return { servers, warnings: [...notStarted, ...problems.map((p) => `Skipping invalid server block: ${p}`)] };
  }
  if (problems.length > 0) {
    throw new ConfigInvalidError(
      `${problems.length} problem(s) in server blocks:\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
        'A server block is <instance>: {<server type>: {<implementation>: {entrypoint: …, …}}}. ' +
        'Set error_on_almost_servers: false to skip invalid blocks instead.',
    );
  }
  return { servers, warnings: notStarted };
}

/** The original's test for "looks like a server": some implementation under a server type has an `entrypoint`. */
function hasEntrypoint(block: ConfigMap): boolean {
  return SERVER_TYPES.some((type) => {
    const impls = block[type];
    return isMap(impls) && Object.values(impls).some((fields) => isMap(fields) && Object.hasOwn(fields, 'entrypoint'));
  });
}

function parseBlock(name: string, value: ConfigMap, report: (path: KeyPath, msg: string) => void): ServerBlock | undefined {
  const typeKeys = Object.keys(value);
  if (typeKeys.length !== 1) {
    report([name], `expected exactly one server-type key (${SERVER_TYPES.join(' | ')}), found ${typeKeys.join(', ')}`);
    return undefined;
  }
  const serverType = typeKeys[0] as ServerType;
  const impls = value[serverType];
  if (!isMap(impls) || Object.keys(impls).length !== 1) {
    const found = isMap(impls) ? `${Object.keys(impls).length} keys` : describeKind(impls);
    report([name, serverType], `expected a map with exactly one implementation name (e.g. simple_agent), found ${found}`);
    return undefined;
  }
  const implementation = Object.keys(impls)[0]!;
  const fields = impls[implementation];
  const at = [name, serverType, implementation];
  if (!isMap(fields)) {
    report(at, `expected the implementation's field map, found ${describeKind(fields)}`);
    return undefined;
  }
  const parsed = SERVER_SCHEMAS[serverType].safeParse(fields);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) report([...at, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))], issue.message);
    return undefined;
  }
  return { instanceName: name, serverType, implementation, config: parsed.data };
}
