/**
 * The `GYM_HEAD_URL` variable and the head server addresses users write: read without the config
 * loader, so declaring the config flags (every `gym` start, `--version` included) loads no schema
 * or YAML library.
 * @module
 */
import { DEFAULT_HOST } from '@gym/server/internal/config/ports.js';
import { GymUserError } from '@gym/server/internal/errors.js';

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
