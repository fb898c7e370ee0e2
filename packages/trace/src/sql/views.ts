/**
 * The tables `gym trace sql` offers, as DuckDB views over the partition files of a run's index
 * (plain JSON lines of our console records, whatever format the run was written in): `spans`,
 * with the gym attributes as columns, and `metrics`, one row per metric data point.
 * @module
 */
import { join } from 'node:path';
import type { PartitionIndex } from '../partition/partition-index.js';
import { ATTR } from '../span-record.js';

// what a lean console line carries instead of a resource block, and joins its file's resource record by
const IDENTITY_COLUMNS = `"service.name": 'VARCHAR', "service.instance.id": 'VARCHAR', "process.pid": 'VARCHAR'`;
const SPAN_COLUMNS = `{_gym_source: 'JSON', trace_id: 'VARCHAR', span_id: 'VARCHAR', parent_span_id: 'VARCHAR', name: 'VARCHAR', kind: 'VARCHAR', start_time_unix_nano: 'VARCHAR', end_time_unix_nano: 'VARCHAR', start_time: 'VARCHAR', end_time: 'VARCHAR', status: 'JSON', attributes: 'JSON', events: 'JSON', resource: 'JSON', ${IDENTITY_COLUMNS}}`;
const METRIC_COLUMNS = `{_gym_source: 'JSON', name: 'VARCHAR', unit: 'VARCHAR', kind: 'VARCHAR', data_points: 'JSON', resource: 'JSON', ${IDENTITY_COLUMNS}}`;
const RESOURCE_COLUMNS = `{_gym_source: 'JSON', type: 'VARCHAR', attributes: 'JSON', ${IDENTITY_COLUMNS}}`;

/** One documented column of a view (docs/trace.md lists the same). */
export interface ViewColumn {
  name: string;
  sql: string;
}

const attr = (key: string): string => `json_extract_string(attributes, '$."${key}"')`;

/** Columns of the `spans` view, in order. */
export const SPAN_VIEW_COLUMNS: readonly ViewColumn[] = [
  { name: 'trace_id', sql: 'lower(trace_id)' },
  { name: 'span_id', sql: 'lower(span_id)' },
  { name: 'parent_span_id', sql: 'lower(parent_span_id)' },
  { name: 'name', sql: 'name' },
  { name: 'kind', sql: `upper(regexp_replace(coalesce(kind, 'INTERNAL'), '^(SpanKind\\.|SPAN_KIND_)', ''))` },
  // a lean console line carries its service beside its fields instead of a resource block
  { name: 'service', sql: `coalesce(nullif(json_extract_string(resource, '$.attributes."service.name"'), ''), nullif("service.name", ''), 'unknown_service')` },
  { name: 'start_ns', sql: 'start_ns' },
  { name: 'end_ns', sql: 'end_ns' },
  { name: 'start_time', sql: 'make_timestamp_ns(start_ns)' },
  { name: 'end_time', sql: 'make_timestamp_ns(end_ns)' },
  { name: 'duration_ms', sql: '(end_ns - start_ns) / 1e6' },
  { name: 'ended', sql: 'ended' },
  {
    name: 'status_code',
    sql: `CASE WHEN upper(json_extract_string(status, '$.code')) LIKE '%ERROR' OR json_extract_string(status, '$.code') = '2' THEN 'ERROR' WHEN upper(json_extract_string(status, '$.code')) LIKE '%OK' OR json_extract_string(status, '$.code') = '1' THEN 'OK' ELSE 'UNSET' END`,
  },
  { name: 'status_message', sql: `nullif(json_extract_string(status, '$.message'), '')` },
  { name: 'rollout_id', sql: attr(ATTR.ROLLOUT_ID) },
  { name: 'server_name', sql: attr(ATTR.SERVER_NAME) },
  { name: 'server_type', sql: attr(ATTR.SERVER_TYPE) },
  { name: 'service_group', sql: attr(ATTR.SERVICE_GROUP) },
  { name: 'run_id', sql: `json_extract_string(resource, '$.attributes."nemo.run.id"')` },
  { name: 'http_method', sql: attr(ATTR.HTTP_METHOD) },
  { name: 'http_route', sql: attr(ATTR.HTTP_ROUTE) },
  { name: 'http_status', sql: `TRY_CAST(${attr(ATTR.HTTP_STATUS)} AS INTEGER)` },
  { name: 'url', sql: attr('url.full') },
  { name: 'reward', sql: `TRY_CAST(${attr(ATTR.VERIFY_REWARD)} AS DOUBLE)` },
  { name: 'model', sql: `coalesce(${attr(ATTR.GEN_AI_RESPONSE_MODEL)}, ${attr(ATTR.GEN_AI_REQUEST_MODEL)})` },
  { name: 'input_tokens', sql: `TRY_CAST(${attr(ATTR.GEN_AI_INPUT_TOKENS)} AS BIGINT)` },
  { name: 'output_tokens', sql: `TRY_CAST(${attr(ATTR.GEN_AI_OUTPUT_TOKENS)} AS BIGINT)` },
  { name: 'truncated', sql: `coalesce(${attr(ATTR.TRUNCATED)} = 'true', false)` },
  { name: 'attributes', sql: 'attributes' },
  { name: 'resource_attributes', sql: `json_extract(resource, '$.attributes')` },
  { name: 'events', sql: 'events' },
  { name: 'source_file', sql: 'source_file' },
  { name: 'source_line', sql: 'source_line' },
];

/** Columns of the `metrics` view, in order. */
export const METRIC_VIEW_COLUMNS: readonly string[] = ['name', 'unit', 'kind', 'service', 'start_ns', 'end_ns', 'time', 'value', 'count', 'sum', 'attributes', 'resource_attributes'];

/** The statements that create the views over `index`. */
export function viewStatements(index: PartitionIndex): string[] {
  const files = `[${index.inputs.map((i) => quote(i.path)).join(', ')}]`;
  const spanFiles = quote(join(index.dir, '*.part'));
  const metricFile = quote(join(index.dir, 'metrics.records'));
  return [
    // the resource records, one per process per input file (copied into every partition), the last one winning
    `CREATE VIEW gym_resources AS
      SELECT ${fileIndex('_gym_source')} AS file_index, "service.name" AS service_name, ${identity('')} AS identity,
        arg_max(attributes, TRY_CAST(json_extract(_gym_source, '$[1]') AS INTEGER)) AS resource_attributes
      FROM read_json([${spanFiles}, ${metricFile}], format = 'newline_delimited', columns = ${RESOURCE_COLUMNS}, ignore_errors = true)
      WHERE type = 'resource'
      GROUP BY ALL`,
    `CREATE VIEW gym_raw_spans AS
      SELECT s.* REPLACE (${joinedResource}),
        coalesce(TRY_CAST(nullif(start_time_unix_nano, '0') AS BIGINT), epoch_ns(TRY_CAST(replace(start_time, 'Z', '') AS TIMESTAMP_NS))) AS start_ns,
        coalesce(TRY_CAST(nullif(end_time_unix_nano, '0') AS BIGINT), epoch_ns(TRY_CAST(replace(end_time, 'Z', '') AS TIMESTAMP_NS))) AS end_raw_ns,
        end_raw_ns IS NOT NULL AND end_raw_ns >= start_ns AS ended,
        CASE WHEN ended THEN end_raw_ns ELSE start_ns END AS end_ns,
        ${files}[TRY_CAST(json_extract(_gym_source, '$[0]') AS INTEGER) + 1] AS source_file,
        TRY_CAST(json_extract(_gym_source, '$[1]') AS INTEGER) AS source_line
      FROM read_json(${spanFiles}, format = 'newline_delimited', columns = ${SPAN_COLUMNS}, ignore_errors = true) s ${joinResource}
      WHERE trace_id IS NOT NULL AND span_id IS NOT NULL AND name IS NOT NULL`,
    `CREATE VIEW spans AS SELECT ${SPAN_VIEW_COLUMNS.map((c) => `${c.sql} AS ${c.name}`).join(', ')} FROM gym_raw_spans WHERE start_ns IS NOT NULL`,
    `CREATE VIEW metrics AS
      WITH points AS (
        SELECT name, unit, kind, ${joinedResource}, "service.name" AS line_service, unnest(CAST(data_points AS JSON[])) AS p
        FROM read_json(${metricFile}, format = 'newline_delimited', columns = ${METRIC_COLUMNS}, ignore_errors = true) s ${joinResource}
        WHERE s.name IS NOT NULL
      )
      SELECT name, unit, kind,
        coalesce(json_extract_string(resource, '$.attributes."service.name"'), line_service, 'unknown_service') AS service,
        TRY_CAST(json_extract_string(p, '$.start_time_unix_nano') AS BIGINT) AS start_ns,
        TRY_CAST(json_extract_string(p, '$.end_time_unix_nano') AS BIGINT) AS end_ns,
        make_timestamp_ns(TRY_CAST(json_extract_string(p, '$.end_time_unix_nano') AS BIGINT)) AS time,
        TRY_CAST(json_extract(p, '$.value') AS DOUBLE) AS value,
        TRY_CAST(json_extract(p, '$.count') AS BIGINT) AS count,
        TRY_CAST(json_extract(p, '$.sum') AS DOUBLE) AS sum,
        json_extract(p, '$.attributes') AS attributes,
        json_extract(resource, '$.attributes') AS resource_attributes
      FROM points`,
  ];
}

const fileIndex = (source: string): string => `TRY_CAST(json_extract(${source}, '$[0]') AS INTEGER)`;
const identity = (table: string): string => `coalesce(${table}"service.instance.id", 'pid ' || ${table}"process.pid")`;
// a lean line (no resource block) joins the resource record of its file and process
const joinResource = `LEFT JOIN gym_resources r ON s.resource IS NULL AND r.file_index = ${fileIndex('s._gym_source')} AND r.service_name = s."service.name" AND r.identity = ${identity('s.')}`;
const joinedResource = `coalesce(s.resource, json_object('attributes', r.resource_attributes)) AS resource`;

function quote(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}
