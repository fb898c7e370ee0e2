/**
 * Proof that the server answering on a port is the one the orchestrator started: a random token per
 * start, passed in the server's environment and echoed in a header of its `GET /` reply. Any other
 * program that happens to listen on that port (a configured port already taken) cannot echo it, so
 * it is reported, never mistaken for a ready server.
 * @module
 */
import { randomBytes } from 'node:crypto';

/** The environment variable that carries a server's start token. */
export const SERVER_TOKEN_ENV = 'GYM_SERVER_START_TOKEN';
/** The response header of `GET /` that echoes it. */
export const SERVER_TOKEN_HEADER = 'x-gym-server-token';

/** A fresh token for one server start. */
export function newServerToken(): string {
  return randomBytes(18).toString('base64url');
}

/** Takes the token out of this process's environment (children it starts do not inherit it). */
export function takeServerToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const token = env[SERVER_TOKEN_ENV];
  delete env[SERVER_TOKEN_ENV];
  return token === undefined || token === '' ? undefined : token;
}
