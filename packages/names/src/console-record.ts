/**
 * The console record of one span: one JSON object per line, written by lens's console exporter
 * and read by `gym trace` (format: docs/lens-setup.md, "console"). The fields are listed in the
 * order they are written; ids and the name come first so `jq -r '"\(.trace_id) \(.name)"'` works
 * on the raw output.
 * @module
 */

/** An attribute map as written (OpenTelemetry attribute values). */
export type RecordAttributes = Record<string, unknown>;

/** The JSON object written for one span. */
export interface ConsoleSpanRecord {
  type: 'span';
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: string;
  start_time: string;
  end_time: string;
  start_time_unix_nano: string;
  end_time_unix_nano: string;
  duration_ms: number;
  status: { code: string; message: string | null };
  attributes: RecordAttributes;
  events: Array<{ name: string; time: string; attributes: RecordAttributes }>;
  links: Array<{ trace_id: string; span_id: string; attributes: RecordAttributes }>;
  resource: { attributes: RecordAttributes };
  scope: { name: string; version: string | null };
}

/** The fields of {@link ConsoleSpanRecord}, in the order they are written. */
export const CONSOLE_SPAN_FIELDS = [
  'type',
  'trace_id',
  'span_id',
  'parent_span_id',
  'name',
  'kind',
  'start_time',
  'end_time',
  'start_time_unix_nano',
  'end_time_unix_nano',
  'duration_ms',
  'status',
  'attributes',
  'events',
  'links',
  'resource',
  'scope',
] as const satisfies ReadonlyArray<keyof ConsoleSpanRecord>;

/** The `type` of a span record (metric and log records carry their own). */
export const CONSOLE_SPAN_TYPE = 'span';
