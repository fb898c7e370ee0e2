/**
 * Where the head server is, decided in one place for every command. Command line first
 * (`--head-url`, then `head_server.*` overrides), then the `GYM_HEAD_URL` variable, then the config
 * files and `env.yaml`, then the built-in 127.0.0.1:11000. `gym env start` and `gym eval run` listen
 * where `gym env status` and `gym eval run --no-serve` look.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readGlobalSettings } from '@gym/server/internal/config/globals.js';
import { resolveInterpolations } from '@gym/server/internal/config/interpolation.js';
import { applyOverrides } from '@gym/server/internal/config/override-apply.js';
import { parseOverrides } from '@gym/server/internal/config/override-parse.js';
import { DEFAULT_HOST } from '@gym/server/internal/config/ports.js';
import { readConfigFile } from '@gym/server/internal/config/yaml-file.js';
import type { ConfigMap } from '@gym/server/internal/config/types.js';
import { headUrlOverrides, parseHeadUrl } from './head-url-variable.js';

export { HEAD_URL_VARIABLE, headUrlOverrides, parseHeadUrl } from './head-url-variable.js';

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
