/**
 * Keeping API keys out of errors: an upstream may echo the key (or part of a request) in its
 * error body, and that body would travel up as the 500 text of every server in the chain.
 * @module
 */
import { GymUpstreamError } from '../../errors.js';
import { GymHttpStatusError } from '../../http/errors.js';

/** What replaces a secret in text. */
export const REDACTED = '[REDACTED]';

/** An upstream answered non-2xx: the runtime's {@link GymHttpStatusError}, under the name model servers know. */
export type HttpStatusErrorLike = GymHttpStatusError;

/** True for an upstream's non-2xx answer. */
export function isHttpStatusError(error: unknown): error is GymHttpStatusError {
  return error instanceof GymHttpStatusError;
}

/** Replaces every occurrence of each secret (4+ characters; shorter ones would mangle text). */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.replaceAll(secret, REDACTED);
  return out;
}

/**
 * Returns `error` unchanged when no secret occurs in it, else a copy with the secrets replaced.
 * A non-2xx error stays one of the same class, so the ingress still nests its body into the 500
 * text ("… calling an inner server: <body>").
 */
export function redactError(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Error)) return error;
  const bodyText = isHttpStatusError(error) ? error.bodyText : '';
  const leaks = secrets.some((s) => s.length >= 4 && (error.message.includes(s) || bodyText.includes(s)));
  if (!leaks) return error;
  if (isHttpStatusError(error)) {
    const text = redactText(error.bodyText, secrets);
    return new GymHttpStatusError({
      method: error.method,
      url: redactText(error.url, secrets),
      status: error.status,
      bodyText: text,
      body: parseOrUndefined(text),
      attempts: error.attempts,
      upstreamCause: error.upstreamCause,
    });
  }
  const code = (error as { code?: unknown }).code;
  return new GymUpstreamError(typeof code === 'string' ? code : 'GYM_MODEL_UPSTREAM', redactText(error.message, secrets));
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
