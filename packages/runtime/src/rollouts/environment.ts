/**
 * What a collection run needs to know about the running servers: the (redacted) config and the
 * server instances, from the head server (`--no-serve`) or from the environment it started.
 * Also the agent choice and the default dataset.
 * @module
 */
import { parse as parseYaml } from 'yaml';
import { GymUserError } from '@gym/server/internal/errors.js';
import { RolloutAgentError } from './errors.js';
import { isJsonObject } from './types.js';
import type { ConfigMap } from '@gym/server/internal/config/types.js';
import type { HttpClient } from '@gym/server/internal/http/types.js';
import type { ServerInstanceDisplay } from '../orchestrator/server-instances.js';

/** The servers of a run, as the collector sees them. */
export interface CollectionEnvironment {
  /** The merged config (from the head server: secrets redacted). */
  config: ConfigMap;
  instances: readonly ServerInstanceDisplay[];
}

/** Asks the head server at `headUrl` for the config and the server instances. */
export async function fetchEnvironment(http: HttpClient, headUrl: string): Promise<CollectionEnvironment> {
  const head = headUrl.replace(/\/$/, '');
  try {
    const [yaml, instances] = await Promise.all([
      http.get<string>(`${head}/global_config_dict_yaml`, { timeoutMs: 10_000 }),
      http.get<ServerInstanceDisplay[]>(`${head}/server_instances`, { timeoutMs: 10_000 }),
    ]);
    const config = parseYaml(yaml.body) as unknown;
    return { config: isJsonObject(config) ? config : {}, instances: instances.body };
  } catch (error) {
    throw new GymUserError(
      'GYM_HEAD_SERVER_UNREACHABLE',
      `No head server answers at ${head} (${(error as Error).message}). Start the servers with 'gym env start', pass --head-url, or drop --no-serve to start them for this run.`,
      { cause: error },
    );
  }
}

/** Agent instance name → base URL. */
export function agentUrls(instances: readonly ServerInstanceDisplay[]): Map<string, string> {
  return new Map(instances.filter((i) => i.server_type === 'responses_api_agents').map((i) => [i.process_name, i.url.replace(/\/$/, '')]));
}

/**
 * The agent for rows without `agent_ref`: `requested` (must exist), else the only agent instance.
 * With several agents and none requested, returns undefined unless `required`, which throws
 * `GYM_ROLLOUT_AGENT_AMBIGUOUS` listing them.
 */
export function chooseAgent(agents: ReadonlyMap<string, string>, requested: string | undefined, required: boolean): string | undefined {
  const names = [...agents.keys()];
  if (requested !== undefined) {
    if (!agents.has(requested)) {
      throw new RolloutAgentError('GYM_ROLLOUT_AGENT_UNKNOWN', `No agent instance named '${requested}'. Agent instances: ${names.join(', ') || '(none)'}. Check --agent.`);
    }
    return requested;
  }
  if (names.length === 1) return names[0];
  if (!required) return undefined;
  if (names.length === 0) throw new RolloutAgentError('GYM_ROLLOUT_AGENT_UNKNOWN', 'The environment has no agent instance (responses_api_agents). Add one to the config.');
  throw new RolloutAgentError('GYM_ROLLOUT_AGENT_AMBIGUOUS', `Several agent instances: ${names.join(', ')}. Pass --agent <name>.`);
}

/** The `jsonl_fpath` of the agent's first dataset of type `example`, as written in the config. */
export function exampleDataset(config: ConfigMap, agent: string): string | undefined {
  const block = config[agent];
  if (!isJsonObject(block) || !isJsonObject(block['responses_api_agents'])) return undefined;
  for (const impl of Object.values(block['responses_api_agents'])) {
    if (!isJsonObject(impl) || !Array.isArray(impl['datasets'])) continue;
    for (const dataset of impl['datasets']) {
      if (isJsonObject(dataset) && dataset['type'] === 'example' && typeof dataset['jsonl_fpath'] === 'string') return dataset['jsonl_fpath'];
    }
  }
  return undefined;
}
