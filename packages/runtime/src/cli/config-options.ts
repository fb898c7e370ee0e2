/**
 * The config-selecting flags shared by `gym env *` and `gym eval run`, and their translation into
 * `loadConfig` options. Flag → key mapping as the original.
 * @module
 */
import { fileURLToPath } from 'node:url';
import type { Command } from '@commander-js/extra-typings';
import type { LoadConfigOptions } from '../config/types.js';
import { headUrlOverrides } from './head-url.js';

/** Where gym itself is installed: the last root searched for servers and configs. */
export const INSTALL_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The parsed selector flags. */
export interface ConfigFlags {
  config?: string[];
  resourcesServer?: string[];
  modelType?: string[];
  searchDir?: string[];
  model?: string;
  modelUrl?: string;
  modelApiKey?: string;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Adds the selector flags and the trailing `key=value` overrides to a command. */
export function withConfigFlags<C extends Command<[], {}>>(command: C) {
  return command
    .option('--config <path>', 'a config YAML to merge (repeatable)', collect)
    .option('--resources-server <name>', 'resources_servers/<name>/configs/<name>.yaml (repeatable)', collect)
    .option('--model-type <name>', 'responses_api_models/<name>/configs/<name>.yaml (repeatable)', collect)
    .option('--search-dir <dir>', 'an extra root searched for configs and servers (repeatable)', collect)
    .option('-m, --model <name>', 'policy model name (policy_model_name)')
    .option('--model-url <url>', 'policy model base URL (policy_base_url)')
    .option('--model-api-key <key>', 'policy model API key (policy_api_key)')
    .argument('[overrides...]', 'config overrides: key=value, +key=value, ++key=value');
}

/** Translates flags and overrides into `loadConfig` options rooted at `cwd`. */
export function toLoadConfigOptions(flags: ConfigFlags, overrides: readonly string[], cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): LoadConfigOptions {
  // GYM_HEAD_URL beats the files; the command line's own overrides, after it, beat the variable
  const sugar: string[] = [...headUrlOverrides(env)];
  if (flags.model !== undefined) sugar.push(`++policy_model_name=${flags.model}`);
  if (flags.modelUrl !== undefined) sugar.push(`++policy_base_url=${flags.modelUrl}`);
  if (flags.modelApiKey !== undefined) sugar.push(`++policy_api_key=${flags.modelApiKey}`);
  return {
    rootDir: cwd,
    selectors: {
      configs: flags.config ?? [],
      resourcesServers: flags.resourcesServer ?? [],
      modelTypes: flags.modelType ?? [],
      searchDirs: [...(flags.searchDir ?? []), INSTALL_ROOT],
    },
    overrides: [...sugar, ...overrides],
  };
}
