/**
 * The head server: the registry of a run. Serves the resolved config (secrets redacted) and the
 * list of server instances, so processes outside the run (`gym eval run --no-serve`,
 * `gym env status`, a trainer) can find every server from one address.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import { dumpConfigYaml } from '../config/dump.js';
import { redactSecrets } from '../config/redact.js';
import type { ConfigMap, HeadServerConfig } from '../config/types.js';
import { createServerApp } from '../server/app.js';
import { addJsonRoute } from '../server/json-route.js';
import { listen } from '../server/lifecycle.js';
import type { ListeningAddress } from '../server/lifecycle.js';
import type { ServerInstanceDisplay } from './server-instances.js';

/** A running head server. */
export interface HeadServer {
  address: ListeningAddress;
  close(): Promise<void>;
}

/** Builds the head server app (no listening): `GET /`, `/global_config_dict_yaml`, `/server_instances`. */
export function buildHeadServer(config: ConfigMap, instances: () => readonly ServerInstanceDisplay[], allowedHosts: readonly string[] = []): FastifyInstance {
  const app = createServerApp({ name: 'head_server', serverClass: 'HeadServer', allowedHosts });
  const yaml = dumpConfigYaml(redactSecrets(config) as ConfigMap);
  // a JSON string whose content is YAML, as the original: clients JSON-parse, then YAML-parse
  addJsonRoute(app, { method: 'GET', path: '/global_config_dict_yaml', handler: () => yaml });
  addJsonRoute(app, { method: 'GET', path: '/server_instances', handler: () => instances() });
  return app;
}

/** Starts the head server on `head.host:head.port`. */
export async function startHeadServer(config: ConfigMap, head: HeadServerConfig, instances: () => readonly ServerInstanceDisplay[]): Promise<HeadServer> {
  const app = buildHeadServer(config, instances, [head.host]);
  const address = await listen(app, { host: head.host, port: head.port });
  return { address, close: () => app.close() };
}
