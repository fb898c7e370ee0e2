/**
 * Giving every server instance a host and a port.
 * @module
 */
import { createServer } from 'node:net';
import { ConfigInvalidError, ConfigNoFreePortError } from './errors.js';
import type { ServerBlock } from './servers.js';
import type { ServerInstanceConfig } from './types.js';

/** The head server's port unless `head_server.port` says otherwise (original: `DEFAULT_HEAD_SERVER_PORT`). */
export const DEFAULT_HEAD_SERVER_PORT = 11000;
/** Host every server binds unless `default_host` or the block's `host` says otherwise. */
export const DEFAULT_HOST = '127.0.0.1';
/** Range unset ports are drawn from (`port_range_low` / `port_range_high`). */
export const DEFAULT_PORT_RANGE_LOW = 10001;
export const DEFAULT_PORT_RANGE_HIGH = 20000;

/** Options of {@link assignHostsAndPorts}. */
export interface PortAssignmentOptions {
  defaultHost: string;
  rangeLow: number;
  rangeHigh: number;
  /** Ports no server may take (the head server's, `disallowed_ports`). */
  disallowed: Iterable<number>;
  /** Bind-test candidate ports (default true). With false, unset ports become -1. */
  probe?: boolean;
}

/**
 * True when a TCP listener can bind `port` on `host` right now. A host that is not local to this
 * machine (multi-node configs) is probed on all interfaces instead.
 */
export async function isPortFree(port: number, host: string): Promise<boolean> {
  const attempt = (h: string): Promise<string | undefined> =>
    new Promise((resolve) => {
      const server = createServer();
      server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'ERROR'));
      server.listen({ port, host: h, exclusive: true }, () => server.close(() => resolve(undefined)));
    });
  const code = await attempt(host);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return (await attempt('0.0.0.0')) === undefined;
  return code === undefined;
}

/**
 * Finds a free port in `[low, high]`, starting at a random point and walking the range once,
 * skipping `exclude`. A port is free if a bind succeeds; it may still be taken before the server
 * starts (same race as the original).
 * @throws {ConfigNoFreePortError} when every port in the range is excluded or busy.
 */
export async function findFreePort(host: string, low: number, high: number, exclude: ReadonlySet<number>): Promise<number> {
  const size = high - low + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = low + ((start + i) % size);
    if (!exclude.has(port) && (await isPortFree(port, host))) return port;
  }
  throw new ConfigNoFreePortError(`No free port in port_range_low..port_range_high = ${low}..${high} on ${host}. Widen the range or set port: explicitly.`);
}

/**
 * Fills in `host` (block's, else `defaultHost`) and `port` (block's, else a free one) for every
 * block. Explicit ports are reserved first, so a drawn port never collides with one set later
 * in the file; two blocks with the same explicit host:port, or one on a disallowed port, are errors.
 * The returned configs carry the filled-in `host` and `port` in `config` too.
 * @throws {ConfigInvalidError} on a port clash or a bad range; {@link ConfigNoFreePortError}.
 */
export async function assignHostsAndPorts(blocks: readonly ServerBlock[], options: PortAssignmentOptions): Promise<ServerInstanceConfig[]> {
  const { rangeLow: low, rangeHigh: high } = options;
  if (!Number.isInteger(low) || !Number.isInteger(high) || low < 1 || high > 65535 || low > high) {
    throw new ConfigInvalidError(`port_range_low..port_range_high must be integers with 1 <= low <= high <= 65535, got ${low}..${high}.`);
  }
  const taken = new Set(options.disallowed);
  const explicit = new Map<string, string>();
  for (const b of blocks) {
    const port = b.config['port'];
    if (typeof port !== 'number' || port === 0) continue;
    const host = hostOf(b, options.defaultHost);
    const other = explicit.get(`${host}:${port}`);
    if (other !== undefined || taken.has(port)) {
      const why = other !== undefined ? `instance '${other}' also uses it` : 'it is reserved (head server or disallowed_ports)';
      throw new ConfigInvalidError(`Server instance '${b.instanceName}' sets port ${port} on ${host}, but ${why}. Pick another port or leave it unset.`);
    }
    explicit.set(`${host}:${port}`, b.instanceName);
  }
  for (const key of explicit.keys()) taken.add(Number(key.slice(key.lastIndexOf(':') + 1)));

  const out: ServerInstanceConfig[] = [];
  for (const b of blocks) {
    const host = hostOf(b, options.defaultHost);
    let port = b.config['port'];
    if (typeof port !== 'number' || port === 0) {
      port = options.probe === false ? -1 : await findFreePort(host, low, high, taken);
      taken.add(port as number);
    }
    out.push({ ...b, config: { ...b.config, host, port }, host, port: port as number });
  }
  return out;
}

function hostOf(block: ServerBlock, defaultHost: string): string {
  const host = block.config['host'];
  return typeof host === 'string' && host !== '' ? host : defaultHost;
}
