/**
 * `loadConfig`: the whole pipeline from selectors, files, `env.yaml` and CLI overrides to a
 * resolved config with every server placed. Orchestration only; each step lives in its module.
 * @module
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { applyDirectives } from './directives.js';
import { applyAgentDefaults, readGlobalSettings } from './globals.js';
import { CONFIG_PATHS_KEY, includePaths, loadConfigFiles } from './includes.js';
import { resolveInterpolations, resolveValueAt } from './interpolation.js';
import { assertNoMissingValues } from './missing-values.js';
import { applyOverrides } from './override-apply.js';
import { parseOverrides } from './override-parse.js';
import { assignHostsAndPorts } from './ports.js';
import { Provenance } from './provenance.js';
import { checkServerRefs } from './references.js';
import { searchRoots } from './search-roots.js';
import { configPathsFromSelectors } from './selectors.js';
import { findServerBlocks } from './servers.js';
import { unimplementedSettingWarnings } from './unimplemented-settings.js';
import { unreadOverrideWarnings } from './unread-overrides.js';
import { isMap, mergeConfigs } from './tree.js';
import { readConfigFile } from './yaml-file.js';
import type { ConfigOverride } from './override-parse.js';
import type { ConfigMap, LoadConfigOptions, ResolvedConfig } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Loads and resolves a gym config. Merge order, later wins: the files of `config_paths` (each
 * after its includes), then `env.yaml`, then CLI overrides. `config_paths` comes from the
 * selectors plus every `config_paths` override, or, when those name none, from `env.yaml`.
 * Then: the directives (`inherit_from`, `copy`, `_delete_key`), interpolation, the `???` check, server blocks, references, hosts and ports.
 * @throws the config errors of `./errors.js` (all `GymUserError`s with `GYM_CONFIG_*` codes).
 * @example
 * const config = await loadConfig({
 *   rootDir: process.cwd(),
 *   selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] },
 *   overrides: ['++policy_model_name=sim'],
 * });
 * for (const s of config.servers) console.log(s.instanceName, `${s.host}:${s.port}`);
 */
export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  const env = options.env ?? process.env;
  const rootDir = resolve(options.rootDir);
  const roots = searchRoots(rootDir, options.selectors?.searchDirs, env);
  const overrides = parseOverrides(options.overrides ?? []);
  const provenance = new Provenance();

  const envFile = envYamlFile(rootDir, options.envYamlPath);
  const envYaml = envFile === undefined ? {} : await readConfigFile(envFile);

  const isPathsOverride = (o: ConfigOverride): boolean => o.path.length === 1 && o.path[0] === CONFIG_PATHS_KEY && o.op !== 'delete';
  const cliEntries = [...configPathsFromSelectors(options.selectors ?? {}, { rootDir, searchDirs: roots }), ...overrides.filter(isPathsOverride).flatMap((o) => overridePaths(o, envYaml, env))];
  const entries = cliEntries.length > 0 ? cliEntries : envYamlPaths(envYaml, envFile, env);
  const loaded = await loadConfigFiles(entries, roots);

  for (const layer of loaded.layers) provenance.recordLayer(layer.tree, layer.file);
  if (envFile !== undefined) provenance.recordLayer(envYaml, envFile);
  let tree = mergeConfigs([...loaded.layers.map((l) => l.tree), envYaml]);
  const valueOverrides = overrides.filter((o) => !isPathsOverride(o));
  tree = applyOverrides(tree, valueOverrides, provenance);
  const unread = unreadOverrideWarnings(valueOverrides, tree);
  if (loaded.entries.length > 0) tree[CONFIG_PATHS_KEY] = loaded.entries;

  // as in the original: directives see every layer, and run before `${…}` and the `???` check
  tree = applyDirectives(tree);
  tree = resolveInterpolations(tree, { env, provenance });
  assertNoMissingValues(tree, provenance);

  const settings = await readGlobalSettings(tree);
  const found = findServerBlocks(tree, provenance);
  checkServerRefs(found.servers);
  const servers = await assignHostsAndPorts(applyAgentDefaults(found.servers, tree), {
    defaultHost: settings.defaultHost,
    rangeLow: settings.rangeLow,
    rangeHigh: settings.rangeHigh,
    disallowed: [settings.head.port, ...settings.disallowed],
    probe: options.probePorts ?? true,
  });

  // Every process gets this tree, so placement is written back into it.
  for (const s of servers) {
    const blocks = (tree[s.instanceName] as ConfigMap)[s.serverType] as ConfigMap;
    blocks[s.implementation] = { ...(blocks[s.implementation] as ConfigMap), ...s.config };
  }
  const headMap = isMap(tree['head_server']) ? tree['head_server'] : {};
  tree['head_server'] = { ...headMap, host: settings.head.host, port: settings.head.port };
  tree['port_range_low'] = settings.rangeLow;
  tree['port_range_high'] = settings.rangeHigh;

  return {
    raw: tree,
    servers,
    head: settings.head,
    telemetry: settings.telemetry,
    sources: [...loaded.layers.map((l) => l.file), ...(envFile === undefined ? [] : [envFile])],
    warnings: [...loaded.warnings, ...found.warnings, ...unimplementedSettingWarnings(tree), ...unread],
  };
}

function envYamlFile(rootDir: string, option: string | false | undefined): string | undefined {
  if (option === false) return undefined;
  if (option !== undefined) return resolve(rootDir, option);
  const file = resolve(rootDir, 'env.yaml');
  return existsSync(file) ? file : undefined;
}

/** A `+config_paths=…` value: a list, one path, or `${key}` naming a list in `env.yaml`. */
function overridePaths(o: ConfigOverride, envYaml: ConfigMap, env: Env): string[] {
  const value = resolveValueAt({ ...envYaml, [CONFIG_PATHS_KEY]: o.value }, [CONFIG_PATHS_KEY], { env });
  return includePaths({ [CONFIG_PATHS_KEY]: typeof value === 'string' ? [value] : value }, `override '${o.text}'`);
}

function envYamlPaths(envYaml: ConfigMap, envFile: string | undefined, env: Env): string[] {
  if (envFile === undefined || envYaml[CONFIG_PATHS_KEY] === undefined) return [];
  const value = resolveValueAt(envYaml, [CONFIG_PATHS_KEY], { env });
  return includePaths({ [CONFIG_PATHS_KEY]: value }, envFile);
}
