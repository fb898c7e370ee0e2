/**
 * Where the head server is, decided in one place for every command. Command line first
 * (`--head-url`, then `head_server.*` overrides), then the `GYM_HEAD_URL` variable, then the config
 * files and `env.yaml`, then the built-in 127.0.0.1:11000. `gym env start` and `gym eval run` listen
 * where `gym env status` and `gym eval run --no-serve` look.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readGlobalSettings } from '../config/globals.js';
import { resolveInterpolations } from '../config/interpolation.js';
import { applyOverrides } from '../config/override-apply.js';
import { parseOverrides } from '../config/override-parse.js';
import { DEFAULT_HOST } from '../config/ports.js';
import { readConfigFile } from '../config/yaml-file.js';
import type { ConfigMap } from '../config/types.js';
import { GymUserError } from '../errors.js';

/** The one environment variable naming the head server, e.g. `GYM_HEAD_URL=127.0.0.1:13000`. */
export const HEAD_URL_VARIABLE = 'GYM_HEAD_URL';

/**
 * Reads a head server address written as a URL, `host:port` or a bare port, and returns it as
 * `http://host:port` (no trailing slash).
 * @throws {GymUserError} `GYM_HEAD_URL_INVALID` naming where the text came from.
 */
export function parseHeadUrl(text: string, source: string): string {
  const trimmed = text.trim();
  const withHost = /^\d+$/.test(trimmed) ? `${DEFAULT_HOST}:${trimmed}` : trimmed;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(withHost) ? withHost : `http://${withHost}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw badHeadUrl(text, source);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') throw badHeadUrl(text, source);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

function badHeadUrl(text: string, source: string): GymUserError {
  return new GymUserError('GYM_HEAD_URL_INVALID', `${source} '${text}' is not a head server address. Write http://127.0.0.1:11000, 127.0.0.1:11000 or just the port, 11000.`);
}

/**
 * `++head_server.host=…` / `++head_server.port=…` for a `GYM_HEAD_URL` in `env`, to put before the
 * command line's own overrides (which then win). Empty when the variable is unset.
 */
export function headUrlOverrides(env: NodeJS.ProcessEnv = process.env): string[] {
  const text = env[HEAD_URL_VARIABLE];
  if (text === undefined || text.trim() === '') return [];
  const url = new URL(parseHeadUrl(text, HEAD_URL_VARIABLE));
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return [`++head_server.host=${url.hostname.replace(/^\[|\]$/g, '')}`, `++head_server.port=${port}`];
}

/** Options of {@link findHeadUrl}. */
export interface FindHeadUrlOptions {
  /** `--head-url`, when given. */
  flag?: string;
  /** The command line's `key=value` overrides (`head_server.port=13000`). */
  overrides?: readonly string[];
  /** Where `env.yaml` is looked for. Default the working directory. */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** The head server URL a client command talks to (see the module comment for the order). */
export async function findHeadUrl(options: FindHeadUrlOptions = {}): Promise<string> {
  if (options.flag !== undefined) return parseHeadUrl(options.flag, '--head-url');
  const env = options.env ?? process.env;
  const envYaml = join(options.cwd ?? process.cwd(), 'env.yaml');
  const files: ConfigMap = existsSync(envYaml) ? await readConfigFile(envYaml) : {};
  const placement: ConfigMap = {};
  for (const key of ['default_host', 'use_absolute_ip', 'head_server']) if (files[key] !== undefined) placement[key] = files[key];
  const tree = applyOverrides(placement, parseOverrides([...headUrlOverrides(env), ...(options.overrides ?? [])]));
  const head = (await readGlobalSettings(resolveInterpolations(tree, { env }))).head;
  // a server bound to every interface is reached on loopback
  const host = head.host === '0.0.0.0' || head.host === '::' ? DEFAULT_HOST : head.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${head.port}`;
}
