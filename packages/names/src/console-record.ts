/**
 * The console records: one JSON object per line, written by lens's console exporter and read by
 * `gym trace` (format: docs/lens-setup.md, "console"). A process states its resource once per
 * stream (a resource record, first and again whenever it changes); every span, metric and log line
 * after it carries only its process's identity (`service.name`, and `service.instance.id` or
 * `process.pid`), by which a reader joins the line to the resource. The fields are listed in the
 * order they are written; ids and the name come first so `jq -r '"\(.trace_id) \(.name)"'` works
 * on the raw output.
 * @module
 */

/** An attribute map as written (OpenTelemetry attribute values). */
export type RecordAttributes = Record<string, unknown>;

/** An instrumentation scope as written. */
export interface RecordScope {
  name: string;
  version: string | null;
}

/** What identifies the process a line comes from: `service.instance.id` when its resource has one, else the pid. */
export interface ProcessIdentityFields {
  'service.name': string;
  'service.instance.id'?: string;
  'process.pid'?: number;
}

/** The resource of a process, stated once per stream before its other records. */
export interface ConsoleResourceRecord {
  type: 'resource';
  'service.name': string;
  'service.instance.id'?: string;
  'process.pid'?: number;
  /** The scope of the lines that carry none (the process's own spans). */
  scope?: RecordScope;
  attributes: RecordAttributes;
}

/** The JSON object written for one span. */
export interface ConsoleSpanRecord extends ProcessIdentityFields {
  type: 'span';
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: string;
  start_time_unix_nano: string;
  end_time_unix_nano: string;
  duration_ms: number;
  status: { code: string; message: string | null };
  attributes: RecordAttributes;
  /** Absent when the span has none. */
  events?: Array<{ name: string; time_unix_nano: string; attributes: RecordAttributes }>;
  /** Absent when the span has none. */
  links?: Array<{ trace_id: string; span_id: string; attributes: RecordAttributes }>;
  /** Absent when it is the scope its resource record states. */
  scope?: RecordScope;
}

/** Every field of {@link ConsoleSpanRecord}, in the order they are written (optional ones only when present). */
export const CONSOLE_SPAN_FIELDS = [
  'type',
  'trace_id',
  'span_id',
  'parent_span_id',
  'name',
  'kind',
  'start_time_unix_nano',
  'end_time_unix_nano',
  'duration_ms',
  'status',
  'attributes',
  'events',
  'links',
  'scope',
  'service.name',
  'service.instance.id',
  'process.pid',
] as const satisfies ReadonlyArray<keyof ConsoleSpanRecord>;

/** The fields of {@link CONSOLE_SPAN_FIELDS} a span line may leave out (exactly one of the last two is written). */
export const CONSOLE_SPAN_OPTIONAL_FIELDS = ['events', 'links', 'scope', 'service.instance.id', 'process.pid'] as const satisfies ReadonlyArray<(typeof CONSOLE_SPAN_FIELDS)[number]>;

/** The identity fields every span, metric and log line ends with, in the order they are written. */
export const CONSOLE_IDENTITY_FIELDS = ['service.name', 'service.instance.id', 'process.pid'] as const satisfies ReadonlyArray<keyof ProcessIdentityFields>;

/** The `type` of a span record (metric and log records carry their own). */
export const CONSOLE_SPAN_TYPE = 'span';
/** The `type` of a resource record. */
export const CONSOLE_RESOURCE_TYPE = 'resource';
