// What a resources-server author installs with @gym/server, read from package-lock.json (no network):
// the closure of its dependencies as npm installs them (dependencies and required peers, from each
// package's place in node_modules, as Node resolves them) holds no DuckDB, no gRPC and no protobufjs.
// Its optional peers (@gym/lens, @opentelemetry/api) and optional dependencies are left out: a
// server that does not ask for telemetry does not get them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/gym-process.js';

interface LockEntry {
  link?: boolean;
  resolved?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const LOCK = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
/** Installed for a server author, never: the trace reader's database, the gRPC stack, protobuf. */
const HEAVY = [/^@duckdb\//, /^duckdb$/, /^@grpc\//, /^protobufjs$/];

/** The lockfile path where Node finds `name` from the package at `from` (its own node_modules, then each parent's). */
function locate(name: string, from: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (LOCK.packages[candidate] !== undefined) return candidate;
    if (dir === '') return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

/** Every package npm installs for `root` (a lockfile path), by name, with the path that needs it. */
function installClosure(root: string): Map<string, string> {
  const seen = new Set<string>();
  const closure = new Map<string, string>();
  const queue = [root];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const entry = LOCK.packages[path]!;
    const required = [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.peerDependencies ?? {}).filter((peer) => entry.peerDependenciesMeta?.[peer]?.optional !== true)];
    for (const name of required) {
      const found = locate(name, path);
      assert.ok(found !== undefined, `${name} (needed by ${path || 'the root'}) is not in package-lock.json`);
      const linked = LOCK.packages[found]!.link === true ? LOCK.packages[found]!.resolved! : found;
      if (seen.has(linked)) continue;
      seen.add(linked);
      closure.set(name, path);
      queue.push(linked);
    }
  }
  return closure;
}

describe('what @gym/server installs', () => {
  const closure = installClosure('packages/server');

  it('the scan follows the dependencies (fastify and its own dependencies are there)', () => {
    assert.ok(closure.has('fastify') && closure.has('@gym/names') && closure.has('pino') && closure.size > 30, [...closure.keys()].join(' '));
  });

  it('has no DuckDB, no gRPC, no protobufjs, no @gym/trace and no @gym/runtime', () => {
    const heavy = [...closure].filter(([name]) => HEAVY.some((re) => re.test(name)) || name === '@gym/trace' || name === '@gym/runtime');
    assert.deepEqual(
      heavy.map(([name, from]) => `${name} (through ${from})`),
      [],
    );
  });

  it('the runtime, which reads traces, does bring DuckDB (the check would see one)', () => {
    assert.ok([...installClosure('packages/runtime').keys()].some((name) => HEAVY[0]!.test(name)));
  });
});
