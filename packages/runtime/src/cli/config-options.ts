/**
 * The config-selecting flags shared by `gym env *` and `gym eval run` (declared in `config-flags.ts`),
 * translated into `loadConfig` options. Flag → key mapping as the original.
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isSecretKey } from '@gym/server/internal/config/redact.js';
import { GymUserError } from '@gym/server/internal/errors.js';
import type { LoadConfigOptions } from '@gym/server/internal/config/types.js';
import { MODEL_API_KEY_ENV } from './config-flags.js';
import { headUrlOverrides } from './head-url-variable.js';

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
  modelApiKeyFile?: string;
}

/** Translates flags and overrides into `loadConfig` options rooted at `cwd`. */
export function toLoadConfigOptions(flags: ConfigFlags, overrides: readonly string[], cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): LoadConfigOptions {
  // GYM_HEAD_URL beats the files; the command line's own overrides, after it, beat the variable
  const sugar: string[] = [...headUrlOverrides(env)];
  if (flags.model !== undefined) sugar.push(`++policy_model_name=${flags.model}`);
  if (flags.modelUrl !== undefined) sugar.push(`++policy_base_url=${flags.modelUrl}`);
  const apiKey = modelApiKey(flags, env);
  // quoted, so a key of digits stays a string
  if (apiKey !== undefined) sugar.push(`++policy_api_key=${JSON.stringify(apiKey)}`);
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

/** The policy model API key: `--model-api-key`, else `--model-api-key-file`, else `GYM_MODEL_API_KEY`. */
function modelApiKey(flags: ConfigFlags, env: NodeJS.ProcessEnv): string | undefined {
  if (flags.modelApiKey !== undefined) return flags.modelApiKey;
  if (flags.modelApiKeyFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(flags.modelApiKeyFile, 'utf8');
    } catch (error) {
      throw new GymUserError('GYM_CLI_KEY_FILE', `Cannot read --model-api-key-file '${flags.modelApiKeyFile}' (${(error as Error).message}).`, { cause: error });
    }
    const key = text.split(/\r?\n/)[0]!.trim();
    if (key === '') throw new GymUserError('GYM_CLI_KEY_FILE', `--model-api-key-file '${flags.modelApiKeyFile}' is empty; its first line must be the key.`);
    return key;
  }
  const fromEnv = env[MODEL_API_KEY_ENV];
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
}

/**
 * Warnings for secrets given on the command line, where every user of the machine reads them in
 * `ps`: `--model-api-key`, and overrides of secret-looking keys with a literal value.
 */
export function argvSecretWarnings(flags: ConfigFlags, overrides: readonly string[]): string[] {
  const warnings: string[] = [];
  if (flags.modelApiKey !== undefined) {
    warnings.push(`GYM_CLI_W001: --model-api-key is visible to every user of this machine (ps, /proc); pass --model-api-key-file <path> or set ${MODEL_API_KEY_ENV} instead`);
  }
  for (const override of overrides) {
    const match = /^~?\+{0,2}([^=]+)=(.*)$/s.exec(override);
    if (match === null) continue;
    const key = match[1]!.split('.').at(-1)!;
    const value = match[2]!;
    if (isSecretKey(key) && value !== '' && !value.includes('${')) {
      warnings.push(`GYM_CLI_W001: the override of '${match[1]}' puts a secret on the command line, visible in ps; put it in env.yaml or write ${match[1]}=\${oc.env:VAR} and export VAR`);
    }
  }
  return warnings;
}
