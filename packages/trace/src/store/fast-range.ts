/**
 * The fast path of a conversion: DuckDB's `read_json` reads a range of our console records (the
 * record with its resource on every line, and the lean record with a resource record per stream)
 * with explicit columns and writes its spans, normalised, straight into the chunk's spans part:
 * one pass over the range. The other lines (metric, log and resource records; a few per cent of a
 * run), which the byte scan copied into a side file, are read into a small temporary Parquet file
 * and from it into the other parts. Used only when the byte scan and what DuckDB read agree that
 * the JavaScript reader would find exactly the same (see {@link convertFast}); otherwise the
 * caller converts the range with that reader (`record-range.ts`).
 * @module
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlList, sqlString } from './duck.js';
import { partPath } from './store-manifest.js';
import type { PART_TABLES } from './store-manifest.js';
import { castColumns, partFormat } from './store-schema.js';
import type { FileCounts } from './store-manifest.js';
import type { RangeScan } from './scan-range.js';

// The console record's columns (span, metric, log and resource records share one line format).
// Times stay strings: nanoseconds since 1970 exceed a double's precision.
const RECORD_FIELDS = `type VARCHAR, trace_id VARCHAR, span_id VARCHAR, parent_span_id VARCHAR, name VARCHAR, kind VARCHAR,
  start_time_unix_nano VARCHAR, end_time_unix_nano VARCHAR, end_time VARCHAR, status JSON, attributes JSON, events JSON, links JSON,
  resource JSON, scope JSON, "service.name" VARCHAR, "service.instance.id" VARCHAR, "process.pid" VARCHAR,
  unit VARCHAR, temporality VARCHAR, data_points JSON, time_unix_nano VARCHAR, time VARCHAR, severity_text VARCHAR,
  severity_number VARCHAR, body JSON, event_name VARCHAR`;

// A side line as the scan wrapped it: its number, and the record.
const SIDE_COLUMNS = `{seq: 'BIGINT', r: 'STRUCT(${RECORD_FIELDS.replace(/\s+/g, ' ')})'}`;

// What the spans are read with: only a span's fields, and of its status, scope and resource only
// the members used, so that the resource block (most of a line) is not written out as text again.
// A member that is not of the type given reads as null, as the reader takes it.
const SPAN_COLUMNS = `{type: 'VARCHAR', trace_id: 'VARCHAR', span_id: 'VARCHAR', parent_span_id: 'VARCHAR', name: 'VARCHAR', kind: 'VARCHAR',
  start_time_unix_nano: 'VARCHAR', end_time_unix_nano: 'VARCHAR', end_time: 'VARCHAR', status: 'STRUCT(code JSON, message JSON)',
  attributes: 'JSON', events: 'JSON', links: 'JSON', resource: 'STRUCT(attributes JSON)', scope: 'STRUCT(name JSON, version JSON)',
  "service.name": 'VARCHAR', "service.instance.id": 'VARCHAR', "process.pid": 'VARCHAR'}`;

/** An id column as the reader normalises it: lower-case hex, null when all zeros or absent. */
const idSql = (col: string): string => `CASE WHEN NOT regexp_full_match(${col}, '0+') THEN lower(${col}) END`;

// A span line the JavaScript reader would not read exactly this way: ids in another notation
// (0x…, base64), times only as ISO strings, a missing name. Any such line sends the range to it.
// The ids by their lengths in bytes, then their hex digits by `unhex`, which raises an error on
// any other character (the error sends the range to the reader as well): a quarter cheaper than
// one regular expression over the ids and times together, which is left for the times. Then
// all-zero ids and times by comparison.
const ZEROS = (n: number): string => `'${'0'.repeat(n)}'`;
const UNUSUAL_SPAN = `(name IS NULL OR strlen(trace_id) IS DISTINCT FROM 32 OR strlen(span_id) IS DISTINCT FROM 16 OR strlen(coalesce(parent_span_id, ${ZEROS(16)})) <> 16
  OR unhex(trace_id || span_id || coalesce(parent_span_id, '')) IS NULL
  OR NOT regexp_full_match(coalesce(start_time_unix_nano, '-') || ' ' || coalesce(end_time_unix_nano, '0'), '[0-9]+ [0-9]+')
  OR trace_id = ${ZEROS(32)} OR span_id = ${ZEROS(16)} OR ltrim(start_time_unix_nano, '0') = ''
  OR ((end_time_unix_nano IS NULL OR ltrim(end_time_unix_nano, '0') = '') AND end_time IS NOT NULL))`;

/** The process identity of a lean line or resource record (`resource-cache.ts`'s `processIdentity`). */
const IDENTITY = `coalesce("service.name", 'undefined') || chr(0) || coalesce('i:' || "service.instance.id", 'p:' || coalesce("process.pid", 'undefined'))`;

/** A line's identity when it is lean (no resource block; `resourceOfRecord`), else null. */
const LEAN_IDENTITY = `CASE WHEN resource IS NULL AND ("service.name" IS NOT NULL OR "process.pid" IS NOT NULL) THEN ${IDENTITY} END`;

/** `service.name` of resource attributes (JSON text). */
const serviceSql = (res: string): string =>
  `CASE WHEN json_type(${res}, '$."service.name"') = 'VARCHAR' AND json_extract_string(${res}, '$."service.name"') <> '' THEN json_extract_string(${res}, '$."service.name"') ELSE 'unknown_service' END`;

/**
 * The reader's kind names (`normalize.ts`'s `normalizeKind`); the names as our writer spells them
 * first, each by one comparison (an `IN` list is a join per row).
 */
const KIND = `CASE kind WHEN 'INTERNAL' THEN 'INTERNAL' WHEN 'SERVER' THEN 'SERVER' WHEN 'CLIENT' THEN 'CLIENT' WHEN 'PRODUCER' THEN 'PRODUCER' WHEN 'CONSUMER' THEN 'CONSUMER'
    WHEN '2' THEN 'SERVER' WHEN '3' THEN 'CLIENT' WHEN '4' THEN 'PRODUCER' WHEN '5' THEN 'CONSUMER' ELSE CASE
    WHEN regexp_replace(regexp_replace(upper(kind), '^SPANKIND\\.', ''), '^SPAN_KIND_', '') IN ('INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER')
      THEN regexp_replace(regexp_replace(upper(kind), '^SPANKIND\\.', ''), '^SPAN_KIND_', '')
    ELSE 'INTERNAL' END END`;

/** The reader's status codes (`normalizeStatusCode`): numbers 1 OK, 2 ERROR; names ending in OK or ERROR. `code` is JSON. */
const statusCodeSql = (code: string): string => `CASE CAST(${code} AS VARCHAR) WHEN '"UNSET"' THEN 'UNSET' WHEN '"OK"' THEN 'OK' WHEN '"ERROR"' THEN 'ERROR' ELSE CASE
    WHEN json_type(${code}) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN
      CASE WHEN TRY_CAST(${code} AS DOUBLE) = 2 THEN 'ERROR' WHEN TRY_CAST(${code} AS DOUBLE) = 1 THEN 'OK' ELSE 'UNSET' END
    WHEN json_type(${code}) = 'VARCHAR' THEN
      CASE WHEN upper((${code} ->> '$')) LIKE '%ERROR' THEN 'ERROR' WHEN upper((${code} ->> '$')) LIKE '%OK' THEN 'OK' ELSE 'UNSET' END
    ELSE 'UNSET' END END`;

// A JSON value is a string when its text opens with a quote: DuckDB's JSON text (of what read_json
// or json_extract gives) is minified. One parse of the value instead of two.
const IS_JSON_STRING = (json: string): string => `CAST(${json} AS VARCHAR) LIKE '"%'`;

/** A JSON string's text, else null. */
const stringSql = (json: string): string => `CASE WHEN ${IS_JSON_STRING(json)} THEN (${json} ->> '$') END`;

/** A JSON string's text unless empty, else null. */
const nonEmptyStringSql = (json: string): string => `CASE WHEN ${IS_JSON_STRING(json)} THEN nullif(${json} ->> '$', '') END`;

const OBJECT_OR_EMPTY = (col: string): string => `CASE WHEN json_type(${col}) = 'OBJECT' THEN CAST(${col} AS VARCHAR) ELSE '{}' END`;

// read_json has checked that these columns hold JSON: the first character tells an object or an
// array, without parsing a value again for every span
const OBJECT_TEXT_OR_EMPTY = (col: string): string => `CASE WHEN CAST(${col} AS VARCHAR) LIKE '{%' THEN CAST(${col} AS VARCHAR) ELSE '{}' END`;
const NON_EMPTY_ARRAY_TEXT = (col: string): string =>
  `CASE WHEN CAST(${col} AS VARCHAR) LIKE '[%' AND CAST(${col} AS VARCHAR) <> '[]' AND json_array_length(${col}) > 0 THEN CAST(${col} AS VARCHAR) END`;

/** An instant in ns from a nanosecond string, else an ISO string (`time.ts`'s `anyTimeToNs`). */
const nsSql = (nanos: string, iso: string): string =>
  `coalesce(CASE WHEN TRY_CAST(${nanos} AS BIGINT) > 0 THEN TRY_CAST(${nanos} AS BIGINT) END, epoch_ns(TRY_CAST(regexp_replace(${iso}, 'Z$', '') AS TIMESTAMP_NS)))`;

/** A range converted by {@link convertFast}, or the reason it cannot be. */
export type FastResult = { ok: true; counts: FileCounts } | { ok: false; reason: string };

/** Where one range goes. */
export interface RangeTarget {
  /** The store directory. */
  dir: string;
  /** The chunk's number (names its parts). */
  chunk: number;
  /** The input file's absolute path, as stored. */
  file: string;
  /** Lines of the file before the range (line numbers are 1-based in the file). */
  linesBefore: number;
  /** The resource parts of the file's earlier chunks (lean records refer to them). */
  earlierResources: string[];
}

/** The message of the errors the spans query raises when DuckDB's read differs from the reader's. */
const NOT_OURS = 'gym: not a range of our records';

/**
 * Converts `source` (the range's bytes: the input file itself, or a copy of the range) and `side`
 * (its other lines, as {@link scanRange} wrapped them) into the chunk's parts. `scan` is the byte
 * scan of the range: the range must be compact objects, and its lines, span lines and `"span_id"`
 * keys must match what DuckDB read, else `ok` is false (parts written are overwritten by the
 * reader's).
 */
export async function convertFast(c: DuckDBConnection, source: string, side: string, target: RangeTarget, scan: RangeScan): Promise<FastResult> {
  const raw = join(target.dir, `raw-${target.chunk}.tmp.parquet`);
  try {
    // DuckDB gives up on some shapes (a pretty-printed object) despite ignore_errors: the reader takes those
    const failed = await c
      .run(
        `COPY (SELECT seq, r.* FROM read_json(${sqlString(side)}, format = 'newline_delimited', ignore_errors = true, columns = ${SIDE_COLUMNS})
          WHERE r.type IN ('span', 'metric', 'log', 'resource') OR r.span_id IS NOT NULL) TO ${sqlString(raw)} (FORMAT parquet, COMPRESSION snappy)`,
      )
      .then(
        () => null,
        (err: unknown) => err as Error,
      );
    if (failed !== null) return { ok: false, reason: failed.message };
    const check = await c.runAndReadAll(`SELECT count(span_id) FILTER (WHERE type IS DISTINCT FROM 'span'), count(*) FILTER (WHERE type = 'span'),
        coalesce(sum(seq) FILTER (WHERE type = 'span'), 0), count(*) FILTER (WHERE type = 'metric' AND name IS NOT NULL),
        count(*) FILTER (WHERE ${LEAN_IDENTITY} IS NOT NULL), count(*) FILTER (WHERE type = 'resource')
      FROM read_parquet(${sqlString(raw)})`);
    const [sideSpanIds, sideSpans, sideSpanSum, metrics, lean, resources] = (check.getRows()[0] ?? []).map((v) => Number(v ?? 0));
    const resourcesPart = partPath(target.dir, 'resources', target.chunk);
    await writeResources(c, raw, target, resourcesPart);
    const withResources = resources! > 0 || target.earlierResources.length > 0 ? [...target.earlierResources, resourcesPart] : [];
    const wrote = await writeSpans(c, source, target, scan.lines, withResources);
    if (typeof wrote === 'string') return { ok: false, reason: wrote };
    // every span line DuckDB wrote is one the scan saw, under the same number
    if (wrote.spans !== scan.spanLines + sideSpans! || wrote.seqSum !== scan.spanLineSum + sideSpanSum!) return { ok: false, reason: 'DuckDB numbered the span lines otherwise than the byte scan' };
    const spanIds = wrote.spans + wrote.linkSpanIds + sideSpanIds!;
    if (spanIds !== scan.spanIdKeys) return { ok: false, reason: `${scan.spanIdKeys - spanIds} "span_id" keys not at the top level of a line or in its links` };
    await writeSideParts(c, raw, { ...target, leanLines: lean! > 0, resources: [...target.earlierResources, resourcesPart] });
    return {
      ok: true,
      counts: {
        linesRead: scan.lines,
        spans: wrote.spans,
        skippedLines: scan.lines - wrote.spans - metrics!,
        metricRecords: metrics!,
        malformedLines: 0,
        malformedExamples: [],
        formats: { console: wrote.spans, python: 0, otlp: 0 },
      },
    };
  } finally {
    await rm(raw, { force: true });
  }
}

/**
 * Writes the chunk's spans part in one pass over `source`: the row number over the scan, where
 * DuckDB keeps the file's order, is the line's number in the range (with no blank lines: the byte
 * scan saw to that). A span in a notation the reader would read otherwise, or more rows than
 * lines, stops the query. Returns what it wrote, or why it stopped.
 */
async function writeSpans(c: DuckDBConnection, source: string, t: RangeTarget, lines: number, resources: string[]): Promise<{ spans: number; seqSum: number; linkSpanIds: number } | string> {
  const part = partPath(t.dir, 'spans', t.chunk);
  // a line's resource: its own block (its attributes, as text), or for a lean line the latest
  // resource record of its process before it in the file (`[pos, next_pos)`), else its service name alone
  const latest =
    resources.length === 0
      ? ''
      : `LEFT JOIN (SELECT identity, pos, lead(pos, 1, 9223372036854775807) OVER (PARTITION BY identity ORDER BY pos) AS next_pos, attributes, service
          FROM read_parquet(${sqlList(resources)})) l ON s.identity = l.identity AND s.pos >= l.pos AND s.pos < l.next_pos`;
  const leanAttrs = resources.length === 0 ? 'NULL' : 'l.attributes';
  const leanService = resources.length === 0 ? 'NULL' : 'l.service';
  try {
    await c.run(`COPY (SELECT ${castColumns('spans')} FROM (
        SELECT lower(trace_id) AS trace_id, lower(span_id) AS span_id, CASE WHEN parent_span_id <> ${ZEROS(16)} THEN lower(parent_span_id) END AS parent_span_id, name, ${KIND} AS kind,
          CAST(start_time_unix_nano AS BIGINT) AS start_ns, CASE WHEN TRY_CAST(end_time_unix_nano AS BIGINT) > 0 THEN CAST(end_time_unix_nano AS BIGINT) END AS end_ns,
          ${statusCodeSql('status.code')} AS status_code,
          ${nonEmptyStringSql('status.message')} AS status_message,
          ${OBJECT_TEXT_OR_EMPTY('attributes')} AS attributes, ${NON_EMPTY_ARRAY_TEXT('events')} AS events, ${NON_EMPTY_ARRAY_TEXT('links')} AS links,
          res_attrs AS resource,
          CASE WHEN resource IS NULL THEN res_service ELSE coalesce(${nonEmptyStringSql('block_service')}, 'unknown_service') END AS service,
          ${stringSql('scope.name')} AS scope_name, ${stringSql('scope.version')} AS scope_version,
          'console' AS format, ${sqlString(t.file)} AS file, ${t.chunk} AS chunk, seq, ${t.linesBefore}::BIGINT + seq AS line
        FROM (SELECT s.*, CASE WHEN s.resource IS NOT NULL THEN json_extract(res_attrs, '$."service.name"') END AS block_service FROM (
          SELECT s.*,
            CASE WHEN s.resource IS NOT NULL THEN ${OBJECT_TEXT_OR_EMPTY('s.resource.attributes')} WHEN s.identity IS NULL THEN '{}' WHEN ${leanAttrs} IS NOT NULL THEN ${leanAttrs}
              WHEN s."service.name" IS NOT NULL THEN json_object('service.name', s."service.name")::VARCHAR ELSE '{}' END AS res_attrs,
            CASE WHEN s.identity IS NULL THEN 'unknown_service' WHEN ${leanAttrs} IS NOT NULL THEN ${leanService} WHEN s."service.name" <> '' THEN s."service.name" ELSE 'unknown_service' END AS res_service
          FROM (SELECT *, ${LEAN_IDENTITY} AS identity, ${t.chunk}::BIGINT * 1000000000000 + seq AS pos
            FROM (SELECT row_number() OVER () AS seq, * FROM read_json(${sqlString(source)}, format = 'newline_delimited', ignore_errors = true, columns = ${SPAN_COLUMNS}))
            WHERE CASE WHEN seq > ${lines} THEN error('${NOT_OURS}: more rows than lines') WHEN type IS DISTINCT FROM 'span' THEN false
              WHEN ${UNUSUAL_SPAN} THEN error('${NOT_OURS}: a span line in an unusual notation') ELSE true END) s
          ${latest}) s))) TO ${sqlString(part)} (${partFormat('spans')})`);
  } catch (err) {
    return (err as Error).message;
  }
  // the "span_id" keys of span links (below the top level) are counted in their text, as the scan counts them
  const [spans, seqSum, linkSpanIds] = (
    await c.runAndReadAll(`SELECT count(*), coalesce(sum(seq), 0), coalesce(sum((length(links) - length(replace(links, '"span_id"', ''))) // 9), 0) FROM read_parquet(${sqlString(part)})`)
  )
    .getRows()[0]!
    .map(Number);
  return { spans: spans!, seqSum: seqSum!, linkSpanIds: linkSpanIds! };
}

async function writeResources(c: DuckDBConnection, raw: string, t: RangeTarget, part: string): Promise<void> {
  const pos = `(${t.chunk}::BIGINT * 1000000000000 + seq)`;
  await c.run(`COPY (SELECT ${castColumns('resources')} FROM (SELECT *, ${serviceSql('attributes')} AS service FROM (SELECT ${sqlString(t.file)} AS file, ${t.chunk} AS chunk, seq, ${IDENTITY} AS identity, ${pos} AS pos,
        CASE WHEN "service.name" IS NOT NULL AND (json_type(attributes) <> 'OBJECT' OR json_extract(attributes, '$."service.name"') IS NULL)
          THEN json_merge_patch(json_object('service.name', "service.name"), ${OBJECT_OR_EMPTY('attributes')})::VARCHAR
          ELSE ${OBJECT_OR_EMPTY('attributes')} END AS attributes
      FROM read_parquet(${sqlString(raw)}) WHERE type = 'resource')) ORDER BY seq) TO ${sqlString(part)} (FORMAT parquet, COMPRESSION zstd)`);
}

/** The metric and log records of the side lines (in `raw`) into their parts. */
async function writeSideParts(c: DuckDBConnection, raw: string, t: RangeTarget & { leanLines: boolean; resources: string[] }): Promise<void> {
  const pos = `(${t.chunk}::BIGINT * 1000000000000 + seq)`;
  const line = `(${t.linesBefore}::BIGINT + seq)`;
  const file = sqlString(t.file);
  // The resource of each record, as res_attrs (JSON text) and res_service: a resource block is
  // read once per distinct block (a process repeats its own on every line); a lean line takes the
  // latest resource record of its process before it in the file, else its service name alone.
  const raws = sqlString(raw);
  const joined = (type: string) => `(SELECT s.*,
        coalesce(m.attrs, CASE WHEN s.identity IS NULL THEN '{}' WHEN l.attributes IS NOT NULL THEN l.attributes
          WHEN s."service.name" IS NOT NULL THEN json_object('service.name', s."service.name")::VARCHAR ELSE '{}' END) AS res_attrs,
        coalesce(m.service, CASE WHEN s.identity IS NULL THEN 'unknown_service' WHEN l.attributes IS NOT NULL THEN l.service
          WHEN s."service.name" <> '' THEN s."service.name" ELSE 'unknown_service' END) AS res_service
      FROM (SELECT *, ${LEAN_IDENTITY} AS identity FROM read_parquet(${raws}) WHERE ${type}) s
      LEFT JOIN ${
        t.leanLines
          ? `(SELECT s.seq, r.attributes, r.service FROM (SELECT seq, ${LEAN_IDENTITY} AS identity, ${pos} AS pos FROM read_parquet(${raws}) WHERE ${type} AND ${LEAN_IDENTITY} IS NOT NULL) s
              ASOF JOIN (SELECT identity, pos, attributes, service FROM read_parquet(${sqlList(t.resources)})) r ON s.identity = r.identity AND s.pos >= r.pos)`
          : '(SELECT NULL::BIGINT AS seq, NULL::VARCHAR AS attributes, NULL::VARCHAR AS service WHERE false)'
      } l ON s.seq = l.seq
      LEFT JOIN (SELECT block, attrs, ${serviceSql('attrs')} AS service FROM (
          SELECT block, CASE WHEN json_type(block, '$.attributes') = 'OBJECT' THEN CAST(json_extract(block, '$.attributes') AS VARCHAR) ELSE '{}' END AS attrs
          FROM (SELECT DISTINCT CAST(resource AS VARCHAR) AS block FROM read_parquet(${raws}) WHERE ${type} AND resource IS NOT NULL))) m
        ON CAST(s.resource AS VARCHAR) = m.block) s`;
  await c.run(`COPY (SELECT ${castColumns('metrics')} FROM (SELECT name, unit, kind, temporality, resource, service,
        coalesce(${nsSql("json_extract_string(p, '$.start_time_unix_nano')", "json_extract_string(p, '$.start_time')")}, end_ns) AS start_ns, end_ns,
        CASE WHEN json_type(p, '$.value') IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN CAST(json_extract(p, '$.value') AS DOUBLE) END AS value,
        CASE WHEN json_type(p, '$.count') IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN CAST(json_extract(p, '$.count') AS DOUBLE) END AS count,
        CASE WHEN json_type(p, '$.sum') IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN CAST(json_extract(p, '$.sum') AS DOUBLE) END AS sum,
        ${OBJECT_OR_EMPTY("json_extract(p, '$.attributes')")} AS attributes, ${file} AS file, ${t.chunk} AS chunk, seq, point
      FROM (SELECT *, ${nsSql("json_extract_string(p, '$.end_time_unix_nano')", "json_extract_string(p, '$.end_time')")} AS end_ns FROM (
        SELECT s.name, s.unit, coalesce(s.kind, 'GAUGE') AS kind, CASE WHEN s.temporality = 'DELTA' THEN 'DELTA' ELSE 'CUMULATIVE' END AS temporality,
          res_attrs AS resource, res_service AS service, s.seq, unnest(coalesce(TRY_CAST(s.data_points AS JSON[]), [])) AS p, generate_subscripts(coalesce(TRY_CAST(s.data_points AS JSON[]), []), 1) AS point
        FROM ${joined(`type = 'metric' AND name IS NOT NULL`)}))
      WHERE end_ns IS NOT NULL)) TO ${sqlString(partPath(t.dir, 'metrics', t.chunk))} (FORMAT parquet, COMPRESSION zstd)`);
  await c.run(`COPY (SELECT ${castColumns('logs')} FROM (
      SELECT ${nsSql('time_unix_nano', 'time')} AS time_ns, severity_text, TRY_CAST(severity_number AS INTEGER) AS severity_number,
        CAST(body AS VARCHAR) AS body, event_name, ${idSql('trace_id')} AS trace_id, ${idSql('span_id')} AS span_id,
        ${OBJECT_TEXT_OR_EMPTY('attributes')} AS attributes, res_attrs AS resource, res_service AS service, ${file} AS file, ${t.chunk} AS chunk, seq, ${line} AS line
      FROM ${joined(`type = 'log'`)})) TO ${sqlString(partPath(t.dir, 'logs', t.chunk))} (FORMAT parquet, COMPRESSION zstd)`);
}

/** Sizes of a chunk's parts, as the manifest records them. */
export async function partSizes(dir: string, chunk: number): Promise<Record<(typeof PART_TABLES)[number], number>> {
  const size = async (table: (typeof PART_TABLES)[number]) => (await stat(partPath(dir, table, chunk))).size;
  return { spans: await size('spans'), metrics: await size('metrics'), logs: await size('logs'), resources: await size('resources'), rollouts: await size('rollouts') };
}
