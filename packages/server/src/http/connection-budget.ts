/**
 * How many sockets a gym process may open per upstream. Every in-flight request over HTTP/1.1
 * holds one socket, and every socket is a file descriptor: an agent with 16k rollouts in flight
 * holds their inbound sockets plus its outbound ones, and the open-file limit (often 1,024 soft,
 * 20,000 or 65,535 hard) is what runs out first — as EMFILE, seen by callers as connection resets.
 * So pools are sized from the limit, and a caller with more requests in flight than sockets
 * pipelines them (docs/http.md).
 * @module
 */
import { readFileSync } from 'node:fs';

/** Sockets per upstream when the open-file limit allows: four times the original's 1024 (docs/http.md). */
export const MAX_DEFAULT_CONNECTIONS = 4096;
/** The share of the open-file limit one pool may take: the rest is inbound sockets, other pools, files. */
const SHARE_OF_OPEN_FILES = 1 / 4;

let cachedLimit: number | undefined;

/** The soft open-file limit of this process (Linux: /proc/self/limits), or `undefined` when unknown. */
export function openFileLimit(): number | undefined {
  if (cachedLimit !== undefined) return cachedLimit;
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    cachedLimit = soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
  } catch {
    cachedLimit = undefined;
  }
  return cachedLimit;
}

/** The default sockets per upstream for an open-file limit (unknown: the maximum). */
export function defaultConnections(limit: number | undefined = openFileLimit()): number {
  if (limit === undefined || !Number.isFinite(limit)) return MAX_DEFAULT_CONNECTIONS;
  return Math.max(16, Math.min(MAX_DEFAULT_CONNECTIONS, Math.floor(limit * SHARE_OF_OPEN_FILES)));
}

/**
 * Sockets and pipelining depth for a caller that keeps `inFlight` requests going to one upstream:
 * one socket each while the budget allows, then several requests per socket (the server answers
 * them in order, so a slow one delays the answers queued behind it on its socket).
 */
export function socketsFor(inFlight: number, budget: number = defaultConnections()): { connections: number; pipelining: number } {
  if (inFlight <= budget) return { connections: Math.max(1, inFlight), pipelining: 1 };
  return { connections: budget, pipelining: Math.ceil(inFlight / budget) };
}
