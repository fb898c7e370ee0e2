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

/** Sockets per upstream and requests per socket once they are all busy. */
export interface UpstreamConnections {
  connections: number;
  pipelining: number;
}

/**
 * The upstream pools of a server. A configured per-host limit is a cap on what reaches an upstream,
 * as in the original: requests beyond it wait in the pool, never pipelined past it. The default
 * budget pipelines once full.
 */
export function upstreamConnections(tree: ConfigMap, numWorkers: number): UpstreamConnections {
  const configured = Number(tree[CONNECTIONS_PER_HOST_KEY]);
  const limited = Number.isInteger(configured) && configured > 0;
  const total = limited ? configured : defaultConnections();
  return { connections: Math.max(1, Math.floor(total / Math.max(1, numWorkers))), pipelining: limited ? 1 : UPSTREAM_PIPELINING };
}
