/**
 * Checks each server's own settings against the schema its entrypoint declares (`configSchema`),
 * for `gym env validate`. The entrypoint is imported, not run: its factory is never called.
 * @module
 */
import { extname } from 'node:path';
import { importServerModule } from '../orchestrator/compiled-server.js';
import { checkServerConfig, isServerConfigSchema } from '@gym/server/internal/protocol/server-config.js';
import type { ServerInstanceConfig } from '@gym/server/internal/config/types.js';
import type { ServerConfigIssue } from '@gym/server/internal/protocol/server-config.js';

/** Entrypoints this process can import; a Python server's settings are its own business. */
const IMPORTABLE = new Set(['.ts', '.mts', '.js', '.mjs']);

/** The problems of every server whose entrypoint declares its settings, servers in order. */
export async function checkDeclaredSettings(servers: readonly { instance: ServerInstanceConfig; dir: string; entrypoint: string }[]): Promise<ServerConfigIssue[]> {
  const issues: ServerConfigIssue[] = [];
  for (const { instance, dir, entrypoint } of servers) {
    if (!IMPORTABLE.has(extname(entrypoint))) continue;
    let schema: unknown;
    try {
      schema = ((await importServerModule(dir, entrypoint)) as { configSchema?: unknown }).configSchema;
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      issues.push({ path: `${instance.instanceName}.${instance.serverType}.${instance.implementation}.entrypoint`, message: `could not be loaded to check its settings: ${message}` });
      continue;
    }
    if (isServerConfigSchema(schema)) issues.push(...checkServerConfig(instance, schema));
  }
  return issues;
}
