/**
 * Turning CLI selectors (`--resources-server X`, `--model-type Y`, `--config PATH`, …) into the
 * ordered list of config files to load.
 * @module
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigFileNotFoundError } from './errors.js';
import { lookupPath } from './search-roots.js';
import { closeMatches } from './suggest.js';
import type { ConfigSelectors } from './types.js';

/** Where each selector's configs live: parent dir, configs subdir, default flavor (`undefined` = the name). */
const ASSETS = {
  resourcesServers: { flag: '--resources-server', parent: 'resources_servers', subdir: 'configs', flavor: undefined },
  modelTypes: { flag: '--model-type', parent: 'responses_api_models', subdir: 'configs', flavor: undefined },
  benchmarks: { flag: '--benchmark', parent: 'benchmarks', subdir: '', flavor: 'config' },
  environments: { flag: '--environment', parent: 'environments', subdir: '', flavor: 'config' },
} as const;

type AssetKey = keyof typeof ASSETS;

/** Selector kinds in merge order; explicit `--config` files come last so they win. */
const ORDER: readonly AssetKey[] = ['resourcesServers', 'modelTypes', 'benchmarks', 'environments'];

/** Context for {@link configPathsFromSelectors}. */
export interface SelectorContext {
  rootDir: string;
  /** Absolute search roots, highest priority first (see `searchRoots`). Defaults to `[rootDir]`. */
  searchDirs?: readonly string[];
}

/**
 * Maps selectors to absolute config file paths, in merge order: resources servers, model types,
 * benchmarks, environments, then `--config` files, each group in the order given. A `name/flavor`
 * value picks `configs/<flavor>.yaml`. Pure apart from reading the file system.
 * @throws {ConfigFileNotFoundError} when a selector names nothing on disk; the message lists the
 * closest existing names and the directories searched.
 * @example
 * configPathsFromSelectors({ resourcesServers: ['example_single_tool_call'] }, { rootDir })
 * // → ['<rootDir>/resources_servers/example_single_tool_call/configs/example_single_tool_call.yaml']
 */
export function configPathsFromSelectors(selectors: ConfigSelectors, ctx: SelectorContext): string[] {
  const roots = ctx.searchDirs && ctx.searchDirs.length > 0 ? ctx.searchDirs : [ctx.rootDir];
  const out: string[] = [];
  for (const key of ORDER) {
    for (const value of selectors[key] ?? []) out.push(assetPath(key, value, roots));
  }
  for (const entry of selectors.configs ?? []) {
    const { found, tried } = lookupPath(entry, roots);
    if (found === undefined) {
      throw new ConfigFileNotFoundError(`--config ${entry} was not found. Looked in:\n${tried.map((p) => `  - ${p}`).join('\n')}`);
    }
    out.push(found);
  }
  return out;
}

function assetPath(key: AssetKey, value: string, roots: readonly string[]): string {
  const asset = ASSETS[key];
  const slash = value.indexOf('/');
  const name = slash === -1 ? value : value.slice(0, slash);
  const flavor = (slash === -1 ? '' : value.slice(slash + 1)) || asset.flavor || name;
  const dir = asset.subdir === '' ? `${asset.parent}/${name}` : `${asset.parent}/${name}/${asset.subdir}`;
  const rel = `${dir}/${flavor}.yaml`;
  const { found, tried } = lookupPath(rel, roots);
  if (found !== undefined) return found;

  // Suggest a flavor when the server dir exists, else a server name.
  const flavors = listNames(
    roots,
    dir,
    (f) => f.endsWith('.yaml'),
    (f) => f.slice(0, -'.yaml'.length),
  );
  const [typo, candidates, where] =
    flavors.length > 0
      ? [flavor, flavors, dir]
      : [
          name,
          listNames(
            roots,
            asset.parent,
            (f, full) => isDir(full),
            (f) => f,
          ),
          asset.parent,
        ];
  const hint = closeMatches(typo, candidates);
  const lines = [
    `${asset.flag} ${value} implies config ${rel}, which does not exist. Looked in:`,
    ...tried.map((p) => `  - ${p}`),
    candidates.length > 0 ? `Available in ${where}/: ${[...new Set(candidates)].sort().join(', ')}` : `No ${where}/ directory has any entries.`,
  ];
  if (hint.length > 0) lines.push(`Did you mean ${hint.map((h) => `'${h}'`).join(' or ')}?`);
  throw new ConfigFileNotFoundError(lines.join('\n'));
}

function listNames(roots: readonly string[], rel: string, keep: (file: string, full: string) => boolean, name: (file: string) => string): string[] {
  const out: string[] = [];
  for (const root of roots) {
    const dir = join(root, rel);
    if (!isDir(dir)) continue;
    for (const file of readdirSync(dir)) if (keep(file, join(dir, file))) out.push(name(file));
  }
  return out;
}

function isDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
