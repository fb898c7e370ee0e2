/**
 * Sockets per upstream of a server process: the original's `global_aiohttp_connector_limit_per_host`
 * when the config sets it, else the open-file budget (`defaultConnections()`); divided among the
 * workers of a server, as the original divides its pool limits.
 * @module
 */
import type { ConfigMap } from '../config/types.js';
import { defaultConnections } from '../http/connection-budget.js';

/**
 * Requests a server pipelines on one upstream socket once every socket of its budget is busy: 16k
 * model calls in flight fit 4096 sockets without waiting for a socket to free up. Below the budget
 * nothing is pipelined (docs/http.md).
 */
export const UPSTREAM_PIPELINING = 4;

/** The config key the original reads for its per-host connection limit. */
export const CONNECTIONS_PER_HOST_KEY = 'global_aiohttp_connector_limit_per_host';

export function upstreamConnections(tree: ConfigMap, numWorkers: number): number {
  const configured = Number(tree[CONNECTIONS_PER_HOST_KEY]);
  const total = Number.isInteger(configured) && configured > 0 ? configured : defaultConnections();
  return Math.max(1, Math.floor(total / Math.max(1, numWorkers)));
}
