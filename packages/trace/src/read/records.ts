/**
 * Tells the record shapes apart (our console spans, OTLP/JSON requests, the Python SDK's spans,
 * console metric batches) and converts each to spans or metric points.
 * @module
 */
import type { SpanRecord, SpanSource } from '../span-record.js';
import { fromConsoleSpan, isConsoleSpan } from './console-span.js';
import { fromConsoleMetric, isConsoleMetric } from './metric-points.js';
import type { MetricPoint } from './metric-points.js';
import { fromOtlpRequest, isOtlpRequest } from './otlp-spans.js';
import { fromPythonSpan, isPythonSpan } from './python-span.js';
import type { ResourceCache } from './resource-cache.js';

/** The input format a span was read from. */
export type SpanFormat = 'console' | 'python' | 'otlp';

/** What {@link handleRecord} found in one record. */
export interface RecordHandlers {
  span(span: SpanRecord, format: SpanFormat): void;
  malformed(reason: string): void;
  /** Receives metric records; without it they count as skipped. */
  metric?(points: MetricPoint[], obj: Record<string, unknown>): void;
  skipped(): void;
}

/** Converts one parsed record; garbage is reported through `handlers`, never thrown. */
export function handleRecord(obj: Record<string, unknown>, source: SpanSource, resources: ResourceCache, handlers: RecordHandlers): void {
  if (isConsoleSpan(obj)) emit(fromConsoleSpan(obj, source, resources), 'console', handlers);
  else if (isOtlpRequest(obj)) {
    const { spans, rejected } = fromOtlpRequest(obj, source, resources);
    for (const s of spans) handlers.span(s, 'otlp');
    for (const r of rejected) handlers.malformed(r);
  } else if (isPythonSpan(obj)) emit(fromPythonSpan(obj, source, resources), 'python', handlers);
  else if (handlers.metric !== undefined && isConsoleMetric(obj)) handlers.metric(fromConsoleMetric(obj, resources, source.file), obj);
  else if (obj['type'] === 'resource') {
    resources.define(source.file, obj);
    handlers.skipped();
  } else handlers.skipped();
}

function emit(s: SpanRecord | string, format: SpanFormat, handlers: RecordHandlers): void {
  if (typeof s === 'string') handlers.malformed(s);
  else handlers.span(s, format);
}
