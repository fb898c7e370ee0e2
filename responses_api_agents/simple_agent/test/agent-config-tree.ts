/**
 * The config tree a simple_agent test builds its servers from: the agent `agent`, the model
 * `policy_model` and one resources server, all on loopback at the ports the test listened on.
 * @module
 */
import type { ConfigMap } from '@gym/server';

/** Where a test's servers listen, and what the agent and its resources server are. */
export interface AgentTreeOptions {
  /** The resources server instance: its name, its type (the app it runs), domain and port. */
  resources: { name: string; type: string; domain: string; port: number };
  /** The model server's URL (a scripted or in-process model). */
  modelUrl: string;
  /** Fields added to the agent's own config. */
  agentFields?: Record<string, unknown>;
}

/** The config tree of `agent` (a simple_agent whose port is never listened on), `policy_model` and the resources server. */
export function agentConfigTree(o: AgentTreeOptions): ConfigMap {
  const { name, type, domain, port } = o.resources;
  return {
    [name]: { resources_servers: { [type]: { entrypoint: 'app.ts', domain, host: '127.0.0.1', port } } },
    policy_model: { responses_api_models: { scripted: { entrypoint: 'app.ts', host: '127.0.0.1', port: Number(new URL(o.modelUrl).port) } } },
    agent: {
      responses_api_agents: {
        simple_agent: {
          entrypoint: 'app.ts',
          host: '127.0.0.1',
          port: 1,
          resources_server: { type: 'resources_servers', name },
          model_server: { type: 'responses_api_models', name: 'policy_model' },
          ...o.agentFields,
        },
      },
    },
  };
}
