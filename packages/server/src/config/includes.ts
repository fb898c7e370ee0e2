/**
 * Loading `config_paths` and their includes in merge order.
 * @module
 */
import { ConfigFileNotFoundError, ConfigInvalidError } from './errors.js';
import { lookupPath } from './search-roots.js';
import { describeKind, readConfigFile } from './yaml-file.js';
import type { ConfigMap } from './types.js';

/** Key listing the files to load; also allowed inside a config file (an include). */
export const CONFIG_PATHS_KEY = 'config_paths';

/** One loaded file. */
export interface ConfigLayer {
  file: string;
  tree: ConfigMap;
}

/** What {@link loadConfigFiles} returns. */
export interface LoadedConfigFiles {
  /** Files in merge order: a file after everything it includes; siblings in listed order. */
  layers: ConfigLayer[];
  /** Every entry, as written, in discovery order (the final `config_paths` value). */
  entries: string[];
  warnings: string[];
}

/**
 * Reads `entries` and, recursively, the `config_paths` each file lists. A file is loaded once:
 * a repeated include (by resolved path) is skipped with a warning, which also breaks include
 * cycles. Relative entries, including those inside files, resolve against `roots`, not against
 * the including file (as in the original).
 * @throws {ConfigFileNotFoundError} naming the entry, the including file and every place tried.
 */
export async function loadConfigFiles(entries: readonly string[], roots: readonly string[]): Promise<LoadedConfigFiles> {
  const seen = new Set<string>();
  const allEntries: string[] = [];
  const warnings: string[] = [];
  const layers: ConfigLayer[] = [];

  const visit = async (entry: string, includedBy: string | undefined): Promise<void> => {
    const { found, tried } = lookupPath(entry, roots);
    if (found === undefined) {
      const from = includedBy === undefined ? '' : ` (listed in ${includedBy})`;
      throw new ConfigFileNotFoundError(
        `config_paths entry '${entry}'${from} was not found. Looked in:\n${tried.map((p) => `  - ${p}`).join('\n')}\n` +
          'Check the spelling; relative paths are looked up in --search-dir roots, NEMO_GYM_EXTRA_ROOTS, then the root dir.',
      );
    }
    if (seen.has(found)) {
      warnings.push(`Config ${found} is included more than once; it is loaded only the first time.`);
      return;
    }
    seen.add(found);
    allEntries.push(entry);
    const tree = await readConfigFile(found);
    // Includes merge first so that the including file overrides them.
    for (const child of includePaths(tree, found)) await visit(child, found);
    layers.push({ file: found, tree });
  };

  for (const entry of entries) await visit(entry, undefined);
  return { layers, entries: allEntries, warnings };
}

/**
 * Validates a `config_paths` value: absent/null → `[]`, a list of strings → itself.
 * @throws {ConfigInvalidError} for anything else.
 */
export function includePaths(tree: ConfigMap, label: string): string[] {
  const value = tree[CONFIG_PATHS_KEY];
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  throw new ConfigInvalidError(
    `${CONFIG_PATHS_KEY} in ${label} must be a list of paths, got ${describeKind(value)}. ` + `Write e.g. ${CONFIG_PATHS_KEY}: [resources_servers/x/configs/x.yaml], or pass each file with --config.`,
  );
}
