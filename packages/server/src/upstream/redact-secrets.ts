/**
 * Keeping API keys out of errors: an upstream may echo the key (or part of a request) in its
 * error body, and that body would travel up as the 500 text of every server in the chain.
 * @module
 */
import { REDACTED } from '../config/redact.js';
import { createSecretScrubber } from '../config/secret-scrub.js';
import { GymUpstreamError } from '../errors.js';
import { GymHttpStatusError } from '../http/errors.js';

/** What replaces a secret in text (the one marker, `config/redact.ts`). */
export { REDACTED };

/** An upstream answered non-2xx: the runtime's {@link GymHttpStatusError}, under the name model servers know. */
export type HttpStatusErrorLike = GymHttpStatusError;

/** True for an upstream's non-2xx answer. */
export function isHttpStatusError(error: unknown): error is GymHttpStatusError {
  return error instanceof GymHttpStatusError;
}

/**
 * Replaces every occurrence of each secret, raw, JSON-escaped or URL-encoded, as the process's
 * scrubber does (`config/secret-scrub.ts`; secrets shorter than 6 characters are left: they would mangle text).
 */
export function redactText(text: string, secrets: readonly string[]): string {
  return createSecretScrubber(secrets)?.(text) ?? text;
}

/**
 * Returns `error` unchanged when no secret occurs in it, else a copy with the secrets replaced.
 * A non-2xx error stays one of the same class, so the ingress still nests its body into the 500
 * text ("… calling an inner server: <body>").
 */
export function redactError(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Error)) return error;
  const scrub = createSecretScrubber(secrets);
  if (scrub === undefined) return error;
  if (isHttpStatusError(error)) {
    const text = scrub(error.bodyText);
    const url = scrub(error.url);
    if (text === error.bodyText && url === error.url) return error;
    return new GymHttpStatusError({ method: error.method, url, status: error.status, bodyText: text, body: parseOrUndefined(text), attempts: error.attempts, upstreamCause: error.upstreamCause });
  }
  const message = scrub(error.message);
  if (message === error.message) return error;
  const code = (error as { code?: unknown }).code;
  return new GymUpstreamError(typeof code === 'string' ? code : 'GYM_MODEL_UPSTREAM', message);
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
