/**
 * `emitSpan`: record a span after the fact, from explicit start and end times.
 * @module
 */
import { context } from '@opentelemetry/api';
import type { Span, HrTime } from '@opentelemetry/api';
import { safeSetSpanAttributes } from './attributes.js';
import type { LooseAttributes } from './attributes.js';
import { isEnabled } from './managed-span.js';
import type { SpanOptions } from './run-in-span.js';
import type { SpanGroup } from './span-groups.js';
import { getTracer } from './tracer.js';
import { lensWarn, LENS_WARNINGS } from './warnings.js';

/** Epoch seconds: a number, or a decimal string parsed exactly (`"1732870000.123456789"`). */
export type EpochSeconds = number | string;

/** Options of {@link emitSpan}. */
export interface EmitSpanOptions extends SpanOptions {
  /** Gate: when given and disabled, nothing happens and `undefined` is returned. */
  group?: SpanGroup | string;
  attributes?: LooseAttributes;
}

const DECIMAL = /^\s*(-?)(\d+)(?:\.(\d*))?\s*$/;

/** Parses epoch seconds to integer nanoseconds. Throws `RangeError` on non-finite or unparseable input. */
export function epochSecondsToNanos(value: EpochSeconds): bigint {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? value.toFixed(9) : '') : value;
  const match = DECIMAL.exec(text);
  if (match === null) throw new RangeError(`emitSpan: not a finite epoch-seconds value: ${String(value)}`);
  const [, sign, whole, frac = ''] = match;
  const nanos = BigInt(whole!) * 1_000_000_000n + BigInt((frac + '000000000').slice(0, 9));
  return sign === '-' ? -nanos : nanos;
}

function toHrTime(nanos: bigint): HrTime {
  return [Number(nanos / 1_000_000_000n), Number(nanos % 1_000_000_000n)];
}

/**
 * Emits an already-finished span with explicit timestamps and returns it (ended, never active).
 * When `options.group` is disabled, returns `undefined` before any validation. An end before the
 * start is clamped to the start, warned about (clock skew), and marked with `inverted.*` attributes.
 * Throws `RangeError` for a non-finite or unparseable timestamp.
 */
export function emitSpan(name: string, start: EpochSeconds, end: EpochSeconds, options: EmitSpanOptions = {}): Span | undefined {
  if (options.group !== undefined && !isEnabled(options.group)) return undefined;
  const startNs = epochSecondsToNanos(start);
  let endNs = epochSecondsToNanos(end);
  const inverted = endNs < startNs;
  if (inverted) {
    lensWarn(LENS_WARNINGS.SPAN_INVERTED, `emitSpan('${name}'): end ${String(end)} is before start ${String(start)} (clock skew?); clamped to zero duration.`);
  }
  const delta = startNs - endNs;
  if (inverted) endNs = startNs;
  const tracer = options.tracer ?? getTracer();
  const span = tracer.startSpan(name, { kind: options.kind, links: options.links, startTime: toHrTime(startNs) }, options.parent ?? context.active());
  try {
    if (options.attributes !== undefined) safeSetSpanAttributes(span, options.attributes);
    if (inverted) {
      span.setAttributes({
        'inverted.skew': true,
        'inverted.start_epoch_seconds': String(start),
        'inverted.end_epoch_seconds': String(end),
        'inverted.delta_seconds': formatNanos(delta),
      });
    }
  } finally {
    span.end(toHrTime(endNs));
  }
  return span;
}

function formatNanos(nanos: bigint): string {
  const whole = nanos / 1_000_000_000n;
  const frac = (nanos % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return frac.length > 0 ? `${whole}.${frac}` : `${whole}`;
}
