/**
 * pino integration: trace correlation on every record, and (while telemetry logs are enabled)
 * each record bridged into the OpenTelemetry logs pipeline. pino is an optional peer: only its types
 * are imported here.
 * @module
 */
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import type { Logger, LoggerOptions } from 'pino';
import { format } from 'node:util';
import { getLogSink } from './log-sink.js';
import { hasStringScrubber, scrubString } from '../scrub.js';

/** The pino options lens contributes: spread them into your own `pino({...})` options. */
export type LensPinoOptions = Required<Pick<LoggerOptions, 'mixin'>> & { hooks: Required<Pick<NonNullable<LoggerOptions['hooks']>, 'logMethod'>> };

/** Options of {@link lensPinoOptions}. */
export interface LensPinoSettings {
  /** Also emit each record as an OpenTelemetry log record while logs are enabled. Default true. */
  exportLogs?: boolean;
}

// pino level → OpenTelemetry SeverityNumber (TRACE=1, DEBUG=5, INFO=9, WARN=13, ERROR=17, FATAL=21)
const SEVERITY: Record<number, number> = { 10: 1, 20: 5, 30: 9, 40: 13, 50: 17, 60: 21 };

/**
 * pino `mixin` adding `trace_id`, `span_id` and `trace_flags` (two hex digits) of the active span,
 * and a `hooks.logMethod` that forwards the record to the OpenTelemetry logger lens installed when
 * logs are enabled (a no-op otherwise). Neither ever throws.
 * @example
 * const log = pino({ ...lensPinoOptions(), level: 'info' });
 */
export function lensPinoOptions(settings: LensPinoSettings = {}): LensPinoOptions {
  const exportLogs = settings.exportLogs ?? true;
  return {
    mixin: traceMixin,
    hooks: {
      logMethod(this: Logger, args, method, level) {
        if (exportLogs) {
          const sink = getLogSink();
          if (sink !== undefined) emit(sink, this, args, level);
        }
        method.apply(this, args);
      },
    },
  };
}

/** The correlation fields of the active span, `{}` outside a valid span. */
export function traceMixin(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const ctx = span.spanContext();
  if (!isSpanContextValid(ctx)) return {};
  return { trace_id: ctx.traceId, span_id: ctx.spanId, trace_flags: ctx.traceFlags.toString(16).padStart(2, '0') };
}

function emit(sink: NonNullable<ReturnType<typeof getLogSink>>, logger: Logger, args: unknown[], level: number): void {
  try {
    let attributes: Attributes = {};
    let rest = args;
    const first = args[0];
    if (first !== null && typeof first === 'object') {
      attributes = toAttributes(first as Record<string, unknown>);
      rest = args.slice(1);
    }
    const [msg, ...interpolation] = rest;
    const body = msg === undefined ? '' : interpolation.length > 0 ? format(msg, ...interpolation) : String(msg);
    if (hasStringScrubber()) for (const key in attributes) if (typeof attributes[key] === 'string') attributes[key] = scrubString(attributes[key]);
    sink.emit({
      severityNumber: SEVERITY[level] ?? 9,
      severityText: logger.levels?.labels?.[level] ?? String(level),
      body: scrubString(body),
      attributes,
      context: context.active(),
    });
  } catch {
    // logging telemetry must never break logging
  }
}

function toAttributes(obj: Record<string, unknown>): Attributes {
  if (obj instanceof Error) return { 'exception.type': obj.name, 'exception.message': obj.message };
  const out: Attributes = {};
  for (const [key, value] of Object.entries(obj)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
    else if (value instanceof Error) {
      out['exception.type'] = value.name;
      out['exception.message'] = value.message;
    } else if (value !== undefined && value !== null) {
      try {
        out[key] = JSON.stringify(value);
      } catch {
        // unserialisable values are left out
      }
    }
  }
  return out;
}
