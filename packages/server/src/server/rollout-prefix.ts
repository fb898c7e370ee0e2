/**
 * The `/ng-rollout/<id>[/training-token-capture]` URL prefix: stripped before routing, the id kept
 * for handlers as `request.gymRolloutId`.
 * @module
 */
import type { IncomingMessage } from 'node:http';

const PREFIX = '/ng-rollout/';
const CAPTURE_SEGMENT = '/training-token-capture';

/** Where the rollout id is kept on the raw request. */
export const ROLLOUT_ID: unique symbol = Symbol('gym.rolloutId');

/** A raw request that may carry a rollout id. */
export type RawRequestWithRollout = IncomingMessage & { [ROLLOUT_ID]?: string };

/**
 * fastify `rewriteUrl`: returns the URL without the prefix and stores the id on `req`.
 * `/ng-rollout/abc/verify?x=1` → `/verify?x=1` with id `abc`.
 */
export function stripRolloutPrefix(req: RawRequestWithRollout): string {
  const url = req.url ?? '/';
  if (!url.startsWith(PREFIX)) return url;
  const idEnd = url.indexOf('/', PREFIX.length);
  const queryAt = url.indexOf('?', PREFIX.length);
  const end = idEnd === -1 ? (queryAt === -1 ? url.length : queryAt) : queryAt !== -1 && queryAt < idEnd ? queryAt : idEnd;
  const rawId = url.slice(PREFIX.length, end);
  if (rawId === '') return url;
  let rest = url.slice(end);
  if (rest.startsWith(CAPTURE_SEGMENT) && (rest.length === CAPTURE_SEGMENT.length || '/?'.includes(rest[CAPTURE_SEGMENT.length] ?? ''))) {
    rest = rest.slice(CAPTURE_SEGMENT.length);
  }
  req[ROLLOUT_ID] = safeDecode(rawId);
  return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** `/ng-rollout/<id>`: put before a route path to call it on behalf of rollout `rolloutId`. */
export function rolloutUrlPrefix(rolloutId: string): string {
  return `${PREFIX}${encodeURIComponent(rolloutId)}`;
}
