/**
 * What the failures file says about an upstream failure behind a rollout's 500: the status, method
 * and URL of the answer that failed first (from the header the servers pass up, upstream-cause.ts)
 * and an excerpt of that answer's body, dug out of the nested "Hit an exception in … calling an
 * inner server: …" texts — bounded, and scrubbed of the run's secrets and of anything shaped like a key.
 * @module
 */
import { scrubCredentialShapes } from '@gym/server/internal/config/redact.js';
import { scrubSecrets } from '@gym/server/internal/config/secret-scrub.js';
import { decodeUpstreamCause, UPSTREAM_CAUSE_HEADER } from '@gym/server/internal/http/upstream-cause.js';
import type { JsonObject } from './types.js';

/** The most of the upstream body a failure row keeps. */
export const UPSTREAM_BODY_EXCERPT_CHARS = 1000;

const NESTED = /^Hit an exception in \S+ calling an inner server: ([\s\S]*)$/;

/** The innermost body of a chain of the original's 500 texts (each one a JSON string of the next). */
export function innermostBody(text: string): string {
  let current = text;
  for (let depth = 0; depth < 16; depth++) {
    let decoded: unknown = current;
    try {
      decoded = JSON.parse(current);
    } catch {
      // not JSON: the text itself
    }
    const nested = typeof decoded === 'string' ? NESTED.exec(decoded) : null;
    if (nested === null) return current;
    current = nested[1]!;
  }
  return current;
}

/** `text` without the run's secrets and without words shaped like a bearer token or a provider's API key. */
export function scrubFailureText(text: string): string {
  return scrubCredentialShapes(scrubSecrets(text));
}

/** A bounded, scrubbed excerpt of `text`. */
export function bodyExcerpt(text: string): string {
  const scrubbed = scrubFailureText(text);
  return scrubbed.length > UPSTREAM_BODY_EXCERPT_CHARS ? `${scrubbed.slice(0, UPSTREAM_BODY_EXCERPT_CHARS)}…` : scrubbed;
}

/** `error.upstream` of a failure row for a `/run` answer with `headers` and body `text`, or `undefined` when no server stated a cause. */
export function upstreamFailure(headers: Record<string, unknown>, text: string): JsonObject | undefined {
  const cause = decodeUpstreamCause(headers[UPSTREAM_CAUSE_HEADER]);
  if (cause === undefined) return undefined;
  return { status: cause.status, method: cause.method, url: scrubSecrets(cause.url), server: cause.server, body_excerpt: bodyExcerpt(innermostBody(text)) };
}
