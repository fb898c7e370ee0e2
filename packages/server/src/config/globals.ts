/**
 * Reading the global (non-server) settings that shape server placement: default host, head
 * server, port range, disallowed ports, and agent-wide defaults.
 * @module
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { z } from 'zod';
import { ConfigInvalidError } from './errors.js';
import { DEFAULT_HEAD_SERVER_PORT, DEFAULT_HOST, DEFAULT_PORT_RANGE_HIGH, DEFAULT_PORT_RANGE_LOW } from './ports.js';
import { isMap } from './tree.js';
import type { ServerBlock } from './servers.js';
import type { ConfigMap, HeadServerConfig } from './types.js';

const digits = (v: unknown): unknown => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v);
const PORT = z.preprocess(digits, z.int().min(1).max(65535));

const GLOBALS_SCHEMA = z.looseObject({
  default_host: z.string().min(1).nullish(),
  use_absolute_ip: z.boolean().nullish(),
  head_server: z.looseObject({ host: z.string().min(1).nullish(), port: PORT.nullish() }).nullish(),
  port_range_low: PORT.nullish(),
  port_range_high: PORT.nullish(),
  disallowed_ports: z.array(PORT).nullish(),
  telemetry: z.looseObject({}).nullish(),
});

/** The parsed global settings with defaults applied. */
export interface GlobalSettings {
  defaultHost: string;
  head: HeadServerConfig;
  rangeLow: number;
  rangeHigh: number;
  disallowed: number[];
  telemetry: ConfigMap | undefined;
}

/**
 * Validates and defaults the global keys. `use_absolute_ip: true` makes the default host this
 * machine's IPv4 address (for multi-node runs), else `default_host`, else 127.0.0.1. The head
 * server defaults to the default host and port 11000.
 * @throws {ConfigInvalidError} naming the key and the expected type.
 */
export async function readGlobalSettings(tree: ConfigMap): Promise<GlobalSettings> {
  const parsed = GLOBALS_SCHEMA.safeParse(tree);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new ConfigInvalidError(`Invalid global config keys:\n${lines.join('\n')}`);
  }
  const g = parsed.data;
  let defaultHost = g.default_host ?? DEFAULT_HOST;
  if (g.use_absolute_ip === true) {
    try {
      defaultHost = (await lookup(hostname(), { family: 4 })).address;
    } catch (err) {
      throw new ConfigInvalidError(`use_absolute_ip: true, but this machine's host name ${hostname()} does not resolve. Set default_host instead.`, {
        cause: err,
      });
    }
  }
  return {
    defaultHost,
    head: { host: g.head_server?.host ?? defaultHost, port: g.head_server?.port ?? DEFAULT_HEAD_SERVER_PORT },
    rangeLow: g.port_range_low ?? DEFAULT_PORT_RANGE_LOW,
    rangeHigh: g.port_range_high ?? DEFAULT_PORT_RANGE_HIGH,
    disallowed: g.disallowed_ports ?? [],
    telemetry: isMap(tree['telemetry']) ? tree['telemetry'] : undefined,
  };
}

/**
 * Copies top-level `skip_verification` / `skip_verification_reward` into every agent block that
 * does not set its own. Returns new blocks; does not touch the tree.
 */
export function applyAgentDefaults(blocks: readonly ServerBlock[], tree: ConfigMap): ServerBlock[] {
  const keys = ['skip_verification', 'skip_verification_reward'].filter((k) => tree[k] !== undefined && tree[k] !== null);
  return blocks.map((b) => {
    if (b.serverType !== 'responses_api_agents') return b;
    const config = { ...b.config };
    for (const k of keys) if (!(k in config)) config[k] = tree[k];
    return { ...b, config };
  });
}
