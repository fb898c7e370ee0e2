/**
 * The head server: the registry of a run. Serves the resolved config (secrets redacted) and the
 * list of server instances, so processes outside the run (`gym eval run --no-serve`,
 * `gym env status`, a trainer) can find every server from one address.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import { dumpConfigYaml } from '@gym/server/internal/config/dump.js';
import { findFreePort, isPortFree } from '@gym/server/internal/config/ports.js';
import { redactSecrets } from '@gym/server/internal/config/redact.js';
import type { ConfigMap, HeadServerConfig } from '@gym/server/internal/config/types.js';
import { createServerApp } from '@gym/server/internal/server/app.js';
import { addJsonRoute } from '@gym/server/internal/server/json-route.js';
import { listen } from '@gym/server/internal/server/lifecycle.js';
import type { ListeningAddress } from '@gym/server/internal/server/lifecycle.js';
import { GymUserError } from '@gym/server/internal/errors.js';
import type { ServerInstanceDisplay } from './server-instances.js';

/** A running head server. */
export interface HeadServer {
  address: ListeningAddress;
  close(): Promise<void>;
}

/** Builds the head server app (no listening): `GET /`, `/global_config_dict_yaml`, `/server_instances`. */
export function buildHeadServer(config: ConfigMap, instances: () => readonly ServerInstanceDisplay[], allowedHosts: readonly string[] = []): FastifyInstance {
  const app = createServerApp({ name: 'head_server', serverClass: 'HeadServer', allowedHosts });
  const yaml = dumpConfigYaml(redactSecrets<ConfigMap>(config));
  // a JSON string whose content is YAML, as the original: clients JSON-parse, then YAML-parse
  addJsonRoute(app, { method: 'GET', path: '/global_config_dict_yaml', handler: () => yaml });
  addJsonRoute(app, { method: 'GET', path: '/server_instances', handler: () => instances() });
  return app;
}

/** Starts the head server on `head.host:head.port`. */
export async function startHeadServer(config: ConfigMap, head: HeadServerConfig, instances: () => readonly ServerInstanceDisplay[]): Promise<HeadServer> {
  const app = buildHeadServer(config, instances, [head.host]);
  try {
    const address = await listen(app, { host: head.host, port: head.port });
    return { address, close: () => app.close() };
  } catch (error) {
    await app.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw await headPortBusyError(head);
    throw error;
  }
}

/** Checks, before anything is started or written, that the head server's port is free. */
export async function assertHeadPortFree(head: HeadServerConfig): Promise<void> {
  if (!(await isPortFree(head.port, head.host))) throw await headPortBusyError(head);
}

/** `GYM_HEAD_PORT_BUSY`, with a port that is free right now to paste. */
async function headPortBusyError(head: HeadServerConfig): Promise<GymUserError> {
  const free = await findFreePort(head.host, 1024, 65535, new Set([head.port])).catch(() => 13000);
  return new GymUserError(
    'GYM_HEAD_PORT_BUSY',
    `Port ${head.port} on ${head.host} is in use, so the head server cannot listen there (another 'gym env start'? 'gym env status' tells). ` +
      `Stop what listens there, or pick another port: add head_server.port=${free} to the command (or set GYM_HEAD_URL=${head.host}:${free} for every gym command of this shell).`,
  );
}
