/**
 * DNS-rebinding protection: a web page can make a browser send requests to a name that resolves to
 * 127.0.0.1, but the browser still sends that name in `Host`. A server therefore answers only Host
 * names it serves — loopback names, IP literals (a rebinding needs a name), its configured host,
 * this machine's name and the `allowed_hosts` of its config — and refuses others with a 403.
 * Decisions are cached per distinct header value, so a request pays one map lookup.
 * @module
 */
import { hostname } from 'node:os';
import { isIP } from 'node:net';

/** The `Host` names a server accepts besides loopback names and IP literals; `true` accepts any. */
export type AllowedHosts = readonly string[] | true;

const CACHE_LIMIT = 256;

/** The host part of a `Host` header value (`name:port`, `[v6]:port`), lower-cased. */
export function hostNameOf(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(1, end);
  }
  const colon = value.indexOf(':');
  // more than one colon: an unbracketed IPv6 literal
  return colon === -1 || value.indexOf(':', colon + 1) !== -1 ? value : value.slice(0, colon);
}

/**
 * A predicate over `Host` header values. `configured` are names the server was configured with
 * (its `host`, `allowed_hosts`); a leading `.` allows a domain and its subdomains (`.corp.example`).
 */
export function createHostCheck(configured: AllowedHosts): (header: string | undefined) => boolean {
  if (configured === true) return () => true;
  const names = new Set(['localhost', hostname().toLowerCase(), ...configured.map((h) => h.toLowerCase())]);
  const suffixes = [...names].filter((n) => n.startsWith('.'));
  const decide = (name: string): boolean => (name === '' ? false : isIP(name) !== 0 || names.has(name) || name.endsWith('.localhost') || suffixes.some((s) => name.endsWith(s) || name === s.slice(1)));
  const cache = new Map<string, boolean>();
  return (header) => {
    // HTTP/1.0 clients may send none; a browser always does
    if (header === undefined) return true;
    let allowed = cache.get(header);
    if (allowed === undefined) {
      allowed = decide(hostNameOf(header));
      if (cache.size < CACHE_LIMIT) cache.set(header, allowed);
    }
    return allowed;
  };
}
