/**
 * Explicit per-request cookies. Gym never keeps a cookie jar: the agent forwards its caller's
 * cookies to each upstream and merges the `Set-Cookie` values it gets back.
 * @module
 */

/** Cookie name → value. */
export type CookieMap = Record<string, string>;

/** Parses a `Cookie` request header (`a=1; b=2`) into a map; later duplicates win. */
export function parseCookieHeader(header: string | undefined): CookieMap {
  const cookies: CookieMap = {};
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name === '') continue;
    cookies[name] = unquote(part.slice(eq + 1).trim());
  }
  return cookies;
}

/** Formats a map as a `Cookie` header value, or `undefined` when it is empty. */
export function formatCookieHeader(cookies: CookieMap | undefined): string | undefined {
  if (cookies === undefined) return undefined;
  let header = '';
  for (const name in cookies) {
    header += `${header === '' ? '' : '; '}${name}=${cookies[name]}`;
  }
  return header === '' ? undefined : header;
}

/**
 * Reads the name and value of each `Set-Cookie` header (attributes are ignored: gym servers scope
 * cookies by name, not by path or expiry).
 */
export function parseSetCookie(values: string | string[] | undefined): CookieMap {
  const cookies: CookieMap = {};
  if (values === undefined) return cookies;
  for (const value of Array.isArray(values) ? values : [values]) {
    const end = value.indexOf(';');
    const pair = end === -1 ? value : value.slice(0, end);
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    cookies[pair.slice(0, eq).trim()] = unquote(pair.slice(eq + 1).trim());
  }
  return cookies;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}
