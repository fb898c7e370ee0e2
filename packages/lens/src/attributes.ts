/**
 * Attribute hygiene: only scalar values reach a span, and secret-looking keys are redacted.
 * @module
 */
import type { AttributeValue, Span } from '@opentelemetry/api';
import { REDACTED } from '@gym/names';

/**
 * Keys whose string values are replaced by {@link REDACTED} (exact, case-sensitive, as nemo-lens).
 * Not the runtime's rule for secret keys (`isSecretKey`): span attributes keep nemo-lens's list,
 * which also hides prompt and output text, so that gym's spans are what nemo-lens's would be.
 */
export const DEFAULT_REDACT_KEYS: ReadonlySet<string> = new Set(['prompt', 'input_text', 'output_text', 'text', 'password', 'token', 'secret', 'key']);

/** The replacement for a redacted value (the one marker of `@gym/names`). */
export { REDACTED };

/** Attribute input: anything; only scalars and arrays of scalars survive {@link safeSetSpanAttributes}. */
export type LooseAttributes = Readonly<Record<string, unknown>>;

/** Returns `[REDACTED]` when `key` is one of `redactKeys`, else `value`. Decided by key name only. */
export function redactValue(key: string, value: string, redactKeys: ReadonlySet<string> = DEFAULT_REDACT_KEYS): string {
  return redactKeys.has(key) ? REDACTED : value;
}

function isScalar(value: unknown): value is string | number | boolean {
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean';
}

/** The attribute value `value` becomes, or `undefined` when it must be dropped. */
export function toAttributeValue(key: string, value: unknown, redactKeys: ReadonlySet<string> = DEFAULT_REDACT_KEYS): AttributeValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return redactValue(key, value, redactKeys);
  if (isScalar(value)) return value;
  if (Array.isArray(value) && value.every(isScalar)) {
    // strings inside arrays are not redacted, as in nemo-lens; keys that hold secrets hold scalars
    return redactKeys.has(key) ? REDACTED : (value as AttributeValue);
  }
  return undefined;
}

/**
 * Sets the scalar (and scalar-array) entries of `attributes` on `span`: nullish values are skipped,
 * strings under redact keys replaced, objects dropped. No-op on a non-recording span; never throws.
 */
export function safeSetSpanAttributes(span: Span, attributes: LooseAttributes, redactKeys: ReadonlySet<string> = DEFAULT_REDACT_KEYS): void {
  try {
    if (!span.isRecording()) return;
    for (const key in attributes) {
      const value = toAttributeValue(key, attributes[key], redactKeys);
      if (value !== undefined) span.setAttribute(key, value);
    }
  } catch {
    // instrumentation never breaks the caller
  }
}
