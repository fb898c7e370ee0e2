/**
 * The tables `gym trace sql` offers, as DuckDB views over the store's Parquet parts of the input's
 * files: `spans` (with gym's attributes as columns), `metrics` (one row per data point), `logs`
 * and `rollouts` (one row per `gym.rollout` span). docs/trace.md lists their columns.
 * @module
 */
import { ATTR } from '../span-record.js';
import { sqlList } from './duck.js';
import type { TraceStore } from './open-store.js';
import { emptyTableSql } from './store-schema.js';

/** One documented column of a view (docs/trace.md lists the same). */
export interface ViewColumn {
  name: string;
  sql: string;
}

/** SQL for the attribute `key` of a span (its `attributes` JSON text) as a string, null when absent. */
export const attr = (key: string): string => `json_extract_string(attributes, '$."${key}"')`;

/** Columns of the `spans` view, in order. */
export const SPAN_VIEW_COLUMNS: readonly ViewColumn[] = [
  { name: 'trace_id', sql: 'trace_id' },
  { name: 'span_id', sql: 'span_id' },
  { name: 'parent_span_id', sql: 'parent_span_id' },
  { name: 'name', sql: 'name' },
  { name: 'kind', sql: 'kind' },
  { name: 'service', sql: 'service' },
  { name: 'start_ns', sql: 'start_ns' },
  { name: 'end_ns', sql: 'CASE WHEN end_ns >= start_ns THEN end_ns ELSE start_ns END' },
  { name: 'start_time', sql: 'make_timestamp_ns(start_ns)' },
  { name: 'end_time', sql: 'make_timestamp_ns(CASE WHEN end_ns >= start_ns THEN end_ns ELSE start_ns END)' },
  { name: 'duration_ms', sql: 'CASE WHEN end_ns >= start_ns THEN (end_ns - start_ns) / 1e6 ELSE 0 END' },
  { name: 'ended', sql: 'coalesce(end_ns >= start_ns, false)' },
  { name: 'status_code', sql: 'status_code' },
  { name: 'status_message', sql: 'status_message' },
  { name: 'rollout_id', sql: attr(ATTR.ROLLOUT_ID) },
  { name: 'server_name', sql: attr(ATTR.SERVER_NAME) },
  { name: 'server_type', sql: attr(ATTR.SERVER_TYPE) },
  { name: 'service_group', sql: attr(ATTR.SERVICE_GROUP) },
  { name: 'run_id', sql: `json_extract_string(resource, '$."nemo.run.id"')` },
  { name: 'http_method', sql: attr(ATTR.HTTP_METHOD) },
  { name: 'http_route', sql: attr(ATTR.HTTP_ROUTE) },
  { name: 'http_status', sql: `TRY_CAST(${attr(ATTR.HTTP_STATUS)} AS INTEGER)` },
  { name: 'url', sql: attr('url.full') },
  { name: 'reward', sql: `TRY_CAST(${attr(ATTR.VERIFY_REWARD)} AS DOUBLE)` },
  { name: 'model', sql: `coalesce(${attr(ATTR.GEN_AI_RESPONSE_MODEL)}, ${attr(ATTR.GEN_AI_REQUEST_MODEL)})` },
  { name: 'input_tokens', sql: `TRY_CAST(${attr(ATTR.GEN_AI_INPUT_TOKENS)} AS BIGINT)` },
  { name: 'output_tokens', sql: `TRY_CAST(${attr(ATTR.GEN_AI_OUTPUT_TOKENS)} AS BIGINT)` },
  { name: 'truncated', sql: `coalesce(${attr(ATTR.TRUNCATED)} = 'true', false)` },
  { name: 'attributes', sql: 'attributes::JSON' },
  { name: 'resource_attributes', sql: 'resource::JSON' },
  { name: 'events', sql: `coalesce(events, '[]')::JSON` },
  { name: 'links', sql: `coalesce(links, '[]')::JSON` },
  { name: 'scope_name', sql: 'scope_name' },
  { name: 'format', sql: 'format' },
  { name: 'source_file', sql: 'file' },
  { name: 'source_line', sql: 'line' },
];

/** Columns of the `metrics` view, in order. */
export const METRIC_VIEW_COLUMNS: readonly string[] = ['name', 'unit', 'kind', 'temporality', 'service', 'start_ns', 'end_ns', 'time', 'value', 'count', 'sum', 'attributes', 'resource_attributes'];

/** Columns of the `logs` view, in order. */
export const LOG_VIEW_COLUMNS: readonly string[] = [
  'time_ns',
  'time',
  'severity_text',
  'severity_number',
  'body',
  'event_name',
  'trace_id',
  'span_id',
  'service',
  'attributes',
  'resource_attributes',
  'source_file',
  'source_line',
];

/** Columns of the `rollouts` view, in order. */
export const ROLLOUT_VIEW_COLUMNS: readonly string[] = ['rollout_id', 'trace_id', 'span_id', 'service', 'start_time', 'end_time', 'duration_ms', 'status_code', 'status_message', 'source_file'];

function source(store: TraceStore, table: 'spans' | 'metrics' | 'logs'): string {
  const parts = store.parts(table);
  return parts.length === 0 ? `(${emptyTableSql(table)})` : `read_parquet(${sqlList(parts)})`;
}

/** The statements that create the views over `store`. */
export function viewStatements(store: TraceStore): string[] {
  return [
    `CREATE VIEW spans AS SELECT ${SPAN_VIEW_COLUMNS.map((c) => `${c.sql} AS ${c.name}`).join(', ')} FROM ${source(store, 'spans')}`,
    `CREATE VIEW metrics AS SELECT name, unit, kind, temporality, service, start_ns, end_ns, make_timestamp_ns(end_ns) AS time, value,
        TRY_CAST(count AS BIGINT) AS count, sum, attributes::JSON AS attributes, resource::JSON AS resource_attributes FROM ${source(store, 'metrics')}`,
    `CREATE VIEW logs AS SELECT time_ns, make_timestamp_ns(time_ns) AS time, severity_text, severity_number, body::JSON AS body, event_name, trace_id, span_id,
        service, attributes::JSON AS attributes, resource::JSON AS resource_attributes, file AS source_file, line AS source_line FROM ${source(store, 'logs')}`,
    `CREATE VIEW rollouts AS SELECT rollout_id, trace_id, span_id, service, start_time, end_time, duration_ms, status_code, status_message, source_file
        FROM spans WHERE name = 'gym.rollout'`,
  ];
}
