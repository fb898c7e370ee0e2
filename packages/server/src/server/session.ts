/**
 * Signed per-server session cookies: the cookie holds a session id and its HMAC-SHA256 under the
 * server's secret. A missing, malformed or forged cookie gets a new session.
 * @module
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { CookieMap } from '../http/cookies.js';

/** The session of one request, keyed by the per-server signed cookie. */
export interface GymSession {
  /** Stable across a caller's requests as long as it sends the cookie back. */
  readonly id: string;
  /** True when this request started the session (its response carries `Set-Cookie`). */
  readonly isNew: boolean;
}

/** The session settings of one server. */
export interface SessionConfig {
  cookieName: string;
  secret: Buffer;
  /**
   * The HMACs (base64url, as in the cookie) of the session ids this server verified already: a
   * session's cookie comes back on each of its calls (a rollout's tool calls and `/verify`), and
   * its HMAC need be computed once. Only ids this server signed or whose cookie verified go in; a
   * cookie is still compared in constant time. Strings, not `Buffer`s: a few thousand buffers kept
   * alive cost the garbage collector more than the HMAC they save (docs/decisions.md).
   */
  verified?: Map<string, string>;
}

/** Verified cookie values kept per server; past this the cache starts afresh (sessions are short-lived). */
const MAX_VERIFIED = 8192;

/** 14 days, Starlette's `SessionMiddleware` default. */
const MAX_AGE_SECONDS = 14 * 24 * 60 * 60;

/** What follows `<name>=<value>` in a new session's `Set-Cookie`. */
const COOKIE_ATTRIBUTES = `; Path=/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax`;

/** Builds the config; a missing secret becomes 32 random bytes (sessions then end with the process). */
export function createSessionConfig(cookieName: string, secret: string | undefined): SessionConfig {
  return { cookieName, secret: secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8'), verified: new Map() };
}

/** The HMAC-SHA256 of session `id` under the server's secret, base64url without padding. */
function macOf(id: string, config: SessionConfig): string {
  return createHmac('sha256', config.secret).update(id).digest('base64url');
}

/** Signs a session id into a cookie value `<id>.<base64url hmac>`. */
export function signSessionId(id: string, config: SessionConfig): string {
  return `${id}.${macOf(id, config)}`;
}

/**
 * Returns the id of a correctly signed cookie value, else `undefined`. The signature must be the
 * one this server writes (unpadded base64url): the cookie comes back as it was sent.
 */
export function verifySessionCookie(value: string, config: SessionConfig): string | undefined {
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const id = value.slice(0, dot);
  const cache = config.verified;
  const known = cache?.get(id);
  const expected = known ?? macOf(id, config);
  if (!sameText(value, dot + 1, expected)) return undefined;
  if (known === undefined) remember(config, id, expected);
  return id;
}

/**
 * Whether `value` from `start` on is `expected`, in time independent of where they differ: every
 * character is compared (the length of a signature is no secret).
 */
function sameText(value: string, start: number, expected: string): boolean {
  if (value.length - start !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= value.charCodeAt(start + i) ^ expected.charCodeAt(i);
  return diff === 0;
}

/** Keeps the HMAC of session `id` (one this server signed or verified). */
function remember(config: SessionConfig, id: string, mac: string): void {
  const cache = config.verified;
  if (cache === undefined) return;
  if (cache.size >= MAX_VERIFIED) cache.clear();
  cache.set(id, mac);
}

/** Reads the session from the request's `cookies`, starting a new one (and setting the cookie on `reply`) when needed. */
export function resolveSession(cookies: CookieMap, reply: FastifyReply, config: SessionConfig): GymSession {
  const value = cookies[config.cookieName];
  const existing = value === undefined ? undefined : verifySessionCookie(value, config);
  if (existing !== undefined) return { id: existing, isNew: false };
  const id = randomUUID();
  const mac = macOf(id, config);
  // the caller sends this cookie back on its next call: that call finds the HMAC computed here
  remember(config, id, mac);
  reply.header('set-cookie', `${config.cookieName}=${id}.${mac}${COOKIE_ATTRIBUTES}`);
  return { id, isNew: true };
}
