/**
 * Sockets per upstream of a server process: the original's `global_aiohttp_connector_limit_per_host`
 * when the config sets it, else the open-file budget (`defaultConnections()`); divided among the
 * workers of a server, as the original divides its pool limits.
 * @module
 */
import type { ConfigMap } from '../config/types.js';
import { defaultConnections } from '../http/connection-budget.js';

/** The config key the original reads for its per-host connection limit. */
export const CONNECTIONS_PER_HOST_KEY = 'global_aiohttp_connector_limit_per_host';

export function upstreamConnections(tree: ConfigMap, numWorkers: number): number {
  const configured = Number(tree[CONNECTIONS_PER_HOST_KEY]);
  const total = Number.isInteger(configured) && configured > 0 ? configured : defaultConnections();
  return Math.max(1, Math.floor(total / Math.max(1, numWorkers)));
}
