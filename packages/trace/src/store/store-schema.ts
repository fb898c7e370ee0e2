/**
 * The columns of the store's Parquet tables, one list for both conversion paths, so every part of
 * a table has the same types. `gym trace sql` shows them through the views of `store-views.ts`.
 * @module
 */

type Table = 'spans' | 'metrics' | 'logs' | 'resources' | 'rollouts';

/** Column name and DuckDB type, per table. JSON text is VARCHAR; instants are ns since 1970. */
export const TABLE_COLUMNS: Record<Table, ReadonlyArray<readonly [string, string]>> = {
  spans: [
    ['trace_id', 'VARCHAR'],
    ['span_id', 'VARCHAR'],
    ['parent_span_id', 'VARCHAR'],
    ['name', 'VARCHAR'],
    ['kind', 'VARCHAR'],
    ['start_ns', 'BIGINT'],
    ['end_ns', 'BIGINT'],
    ['status_code', 'VARCHAR'],
    ['status_message', 'VARCHAR'],
    ['attributes', 'VARCHAR'],
    ['events', 'VARCHAR'],
    ['links', 'VARCHAR'],
    ['resource', 'VARCHAR'],
    ['service', 'VARCHAR'],
    ['scope_name', 'VARCHAR'],
    ['scope_version', 'VARCHAR'],
    ['format', 'VARCHAR'],
    ['file', 'VARCHAR'],
    ['chunk', 'INTEGER'],
    ['seq', 'BIGINT'],
    ['line', 'BIGINT'],
  ],
  metrics: [
    ['name', 'VARCHAR'],
    ['unit', 'VARCHAR'],
    ['kind', 'VARCHAR'],
    ['temporality', 'VARCHAR'],
    ['resource', 'VARCHAR'],
    ['service', 'VARCHAR'],
    ['start_ns', 'BIGINT'],
    ['end_ns', 'BIGINT'],
    ['value', 'DOUBLE'],
    ['count', 'DOUBLE'],
    ['sum', 'DOUBLE'],
    ['attributes', 'VARCHAR'],
    ['file', 'VARCHAR'],
    ['chunk', 'INTEGER'],
    ['seq', 'BIGINT'],
    ['point', 'BIGINT'],
  ],
  logs: [
    ['time_ns', 'BIGINT'],
    ['severity_text', 'VARCHAR'],
    ['severity_number', 'INTEGER'],
    ['body', 'VARCHAR'],
    ['event_name', 'VARCHAR'],
    ['trace_id', 'VARCHAR'],
    ['span_id', 'VARCHAR'],
    ['attributes', 'VARCHAR'],
    ['resource', 'VARCHAR'],
    ['file', 'VARCHAR'],
    ['chunk', 'INTEGER'],
    ['seq', 'BIGINT'],
    ['line', 'BIGINT'],
    ['service', 'VARCHAR'],
  ],
  resources: [
    ['file', 'VARCHAR'],
    ['chunk', 'INTEGER'],
    ['seq', 'BIGINT'],
    ['identity', 'VARCHAR'],
    ['pos', 'BIGINT'],
    ['attributes', 'VARCHAR'],
    ['service', 'VARCHAR'],
  ],
  // the index of `rollout-index.ts`
  rollouts: [
    ['rollout_id', 'VARCHAR'],
    ['trace_id', 'VARCHAR'],
    ['span_id', 'VARCHAR'],
    ['start_ns', 'BIGINT'],
  ],
};

/**
 * Spans per row group of a spans part: a quarter of DuckDB's default. A read of a time range (`show
 * --rollout`, the trace-order slices) decompresses whole row groups, about fifteen seconds of the
 * run in each file instead of a minute, and the conversion's writer holds a quarter of the rows
 * before each flush. The part is about 3 % larger.
 */
const SPANS_ROW_GROUP = 30720;

/** The options of the `COPY` that writes a part of `table`. */
export function partFormat(table: Table): string {
  return table === 'spans' ? `FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${SPANS_ROW_GROUP}` : 'FORMAT parquet, COMPRESSION zstd';
}

/** The `columns` argument of `read_json` for `table`'s JSON-lines form (JSON values kept as text). */
export function columnsStruct(table: Table): string {
  return `{${TABLE_COLUMNS[table].map(([name, type]) => `${name}: '${type === 'VARCHAR' && isJsonColumn(table, name) ? 'JSON' : type}'`).join(', ')}}`;
}

/** A query with no rows and `table`'s columns. */
export function emptyTableSql(table: Table): string {
  return `SELECT ${TABLE_COLUMNS[table].map(([name, type]) => `CAST(NULL AS ${type}) AS ${name}`).join(', ')} WHERE false`;
}

/** The columns of `table` cast to their types, in order (what every part is written with). */
export function castColumns(table: Table): string {
  return TABLE_COLUMNS[table].map(([name, type]) => `CAST(${name} AS ${type}) AS ${name}`).join(', ');
}

function isJsonColumn(table: Table, name: string): boolean {
  return ['attributes', 'events', 'links', 'resource', 'body'].includes(name) && table !== 'resources' ? true : table === 'resources' && name === 'attributes';
}
