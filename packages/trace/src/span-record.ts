/**
 * The one span model every reader produces, whatever the input format. The names it is read by
 * (attribute keys, span names) are the naming contract's, `@gym/names`, which the writers share.
 * @module
 */
import { ATTR } from '@gym/names';

export { ATTR, SPAN } from '@gym/names';

/** OpenTelemetry span kinds, by name. */
export type SpanKindName = 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';

/** Span status codes, by name. */
export type StatusCodeName = 'UNSET' | 'OK' | 'ERROR';

/** An attribute value as read from any input (OTLP arrays of scalars stay arrays). */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

/** Attribute map of a span, event or resource. */
export type Attributes = Record<string, AttributeValue>;

/** A span event (`exception`, `nemo.span.truncated`, retries…). */
export interface SpanEvent {
  name: string;
  /** Unix time in nanoseconds. */
  timeNs: bigint;
  attributes: Attributes;
}

/**
 * A link from a span to a span of another trace: gym's rollout traces link their first span to the
 * run's `gym.job` (docs/observability/distributed-tracing.md).
 */
export interface SpanLink {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  attributes: Attributes;
}

/** The resource a span came from, shared by every span of one process (interned by the reader). */
export interface SpanResource {
  attributes: Attributes;
}

/** Where a span was read from: file and 1-based line of the record's first line. */
export interface SpanSource {
  file: string;
  line: number;
}

/** One span, normalised from console JSON lines, the Python SDK console shape or OTLP/JSON. */
export interface SpanRecord {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** 16 lowercase hex digits, or null for a root. */
  parentSpanId: string | null;
  name: string;
  kind: SpanKindName;
  /** Unix time in nanoseconds. */
  startNs: bigint;
  /** Unix time in nanoseconds; equals `startNs` when the span never ended (see `ended`). */
  endNs: bigint;
  /** `endNs - startNs` in milliseconds. */
  durationMs: number;
  /** False when the record had no end time (a span still open when it was written). */
  ended: boolean;
  status: { code: StatusCodeName; message?: string };
  attributes: Attributes;
  events: SpanEvent[];
  /** Links to spans of other traces; absent when the span has none. */
  links?: SpanLink[];
  /** `service.name` of the resource, `unknown_service` when absent. */
  service: string;
  resource: SpanResource;
  /** Instrumentation scope, when the input carried one. */
  scope: { name: string; version?: string } | null;
  source: SpanSource;
}

/**
 * A span whose attributes are read when first asked for (the store's batched read) can tell,
 * without reading them, that it has not got one.
 */
interface LazyAttributes {
  lacksAttribute?(key: string): boolean;
}

/**
 * The attribute `key` of `span`: `span.attributes[key]`, without reading attributes that are still
 * text when they cannot hold it (for the attributes an analysis asks every span for).
 */
export function attributeOf(span: SpanRecord, key: string): AttributeValue | undefined {
  return (span as LazyAttributes).lacksAttribute?.(key) === true ? undefined : span.attributes[key];
}

/** True when the span was force-closed at shutdown (`nemo.span.truncated=true`). */
export function isTruncated(span: SpanRecord): boolean {
  const v = attributeOf(span, ATTR.TRUNCATED);
  return v === true || v === 'true';
}

/** The most nanoseconds a number holds exactly (2^53 − 1, about 104 days): sums in numbers stay exact below it. */
export const MAX_EXACT_NS = BigInt(Number.MAX_SAFE_INTEGER);

/** Milliseconds between two nanosecond instants. */
export function nsToMs(ns: bigint): number {
  return Number(ns) / 1e6;
}
