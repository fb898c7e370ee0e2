/**
 * The config-selecting flags shared by `gym env *` and `gym eval run`, as the command table declares
 * them. Imports nothing at run time, so declaring them (every `gym` start) loads no config module;
 * `config-options.ts` reads them when a command runs.
 * @module
 */
import type { Command } from '@commander-js/extra-typings';

/** The environment variable read for the policy model's API key when no flag gives one. */
export const MODEL_API_KEY_ENV = 'GYM_MODEL_API_KEY';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Adds the selector flags and the trailing `key=value` overrides to a command. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a command with no options yet has commander's option type {}
export function withConfigFlags<C extends Command<[], {}>>(command: C) {
  return command
    .option('--config <path>', 'a config YAML to merge (repeatable)', collect)
    .option('--resources-server <name>', 'resources_servers/<name>/configs/<name>.yaml (repeatable)', collect)
    .option('--model-type <name>', 'responses_api_models/<name>/configs/<name>.yaml (repeatable)', collect)
    .option('--search-dir <dir>', 'an extra root searched for configs and servers (repeatable)', collect)
    .option('-m, --model <name>', 'policy model name (policy_model_name)')
    .option('--model-url <url>', 'policy model base URL (policy_base_url)')
    .option('--model-api-key <key>', `policy model API key (policy_api_key); visible in ps: prefer --model-api-key-file or ${MODEL_API_KEY_ENV}`)
    .option('--model-api-key-file <path>', 'read the policy model API key from this file (first line)')
    .argument('[overrides...]', 'config overrides: key=value, +key=value, ++key=value');
}
