/**
 * The general path of a conversion: the JavaScript reader (`read/`) reads a range of a file —
 * whatever it holds: the Python SDK's pretty-printed spans, OTLP/JSON requests, log text, odd ids
 * or times — and its spans and saturation metric points are written as JSON lines of the store's
 * own columns, which DuckDB turns into the chunk's parts.
 * @module
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { forEachLine } from '../read/lines.js';
import { serviceOf } from '../read/normalize.js';
import type { MetricPoint } from '../read/metric-points.js';
import { MAX_MALFORMED_EXAMPLES } from '../read/read-stats.js';
import { RecordScanner } from '../read/record-scanner.js';
import { handleRecord } from '../read/records.js';
import { ResourceCache } from '../read/resource-cache.js';
import type { SpanRecord } from '../span-record.js';
import { sqlList, sqlString } from './duck.js';
import type { RangeTarget } from './fast-range.js';
import { emptyCounts, partPath } from './store-manifest.js';
import type { FileCounts } from './store-manifest.js';
import { castColumns, columnsStruct, emptyTableSql, partFormat } from './store-schema.js';

/** Converts `[from, to)` of `path` (whole lines) into the chunk's parts with the JavaScript reader. */
export async function convertWithReader(c: DuckDBConnection, path: string, from: number, to: number, target: RangeTarget): Promise<FileCounts> {
  const counts = emptyCounts();
  const tmp = (table: string) => join(target.dir, `${table}-${target.chunk}.tmp.jsonl`);
  const outs = { spans: createWriteStream(tmp('spans')), metrics: createWriteStream(tmp('metrics')), resources: createWriteStream(tmp('resources')) };
  let seq = 0;
  // one wait for 'drain' per stream, shared by every write that finds it full (a listener each
  // was a warning on stderr past ten)
  const drains = new Map<NodeJS.WritableStream, Promise<void>>();
  const write = async (stream: NodeJS.WritableStream, row: object) => {
    if (stream.write(JSON.stringify(row, bigintAsString) + '\n')) return;
    let drained = drains.get(stream);
    if (drained === undefined) drains.set(stream, (drained = once(stream, 'drain').then(() => void drains.delete(stream))));
    await drained;
  };
  const pending: Array<Promise<void>> = [];
  const resources = new ResourceCache((identity, attributes) => void pending.push(write(outs.resources, { identity, pos: target.chunk * 1e12 + ++seq, attributes, service: serviceOf(attributes) })));
  if (target.earlierResources.length > 0) {
    const earlier = await c.runAndReadAll(`SELECT identity, attributes FROM read_parquet(${sqlList(target.earlierResources)}) ORDER BY pos`);
    for (const [identity, attributes] of earlier.getRows()) resources.defineIdentity(target.file, String(identity), JSON.parse(String(attributes)) as Record<string, never>);
  }
  let recordLine = 0;
  const malformed = (line: number, reason: string) => {
    counts.malformedLines++;
    if (counts.malformedExamples.length < MAX_MALFORMED_EXAMPLES) counts.malformedExamples.push({ file: target.file, line, reason });
  };
  const scanner = new RecordScanner({
    skipped: () => void counts.skippedLines++,
    malformed,
    record(obj, line) {
      recordLine = line;
      handleRecord(obj, { file: target.file, line }, resources, {
        span(s, format) {
          counts.spans++;
          counts.formats[format]++;
          pending.push(write(outs.spans, spanRow(s, format, target, ++seq)));
        },
        metric(points) {
          counts.metricRecords++;
          const at = ++seq;
          points.forEach((p, i) => pending.push(write(outs.metrics, metricRow(p, target, at, i + 1))));
        },
        malformed: (reason) => malformed(recordLine, reason),
        skipped: () => void counts.skippedLines++,
      });
    },
  });
  let lineNo = target.linesBefore;
  if (to > from)
    await forEachLine(createReadStream(path, { encoding: 'utf8', start: from, end: to - 1, highWaterMark: 256 * 1024 }), (line) => {
      counts.linesRead++;
      scanner.push(line, ++lineNo);
      if (pending.length < 256) return undefined;
      return Promise.all(pending.splice(0)).then(() => undefined);
    });
  scanner.end();
  await Promise.all(pending);
  for (const s of Object.values(outs)) {
    s.end();
    await once(s, 'finish');
  }
  try {
    for (const table of ['spans', 'metrics', 'resources'] as const)
      await c.run(
        `COPY (SELECT ${castColumns(table)} FROM read_json(${sqlString(tmp(table))}, format = 'newline_delimited', columns = ${columnsStruct(table)})) TO ${sqlString(partPath(target.dir, table, target.chunk))} (${partFormat(table)})`,
      );
    // log records are kept by the fast path only: the reader has no use for them
    await c.run(`COPY (${emptyTableSql('logs')}) TO ${sqlString(partPath(target.dir, 'logs', target.chunk))} (FORMAT parquet)`);
  } finally {
    for (const table of ['spans', 'metrics', 'resources']) await rm(tmp(table), { force: true });
  }
  return counts;
}

function spanRow(s: SpanRecord, format: string, t: RangeTarget, seq: number): object {
  return {
    trace_id: s.traceId,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    name: s.name,
    kind: s.kind,
    start_ns: s.startNs,
    end_ns: s.ended ? s.endNs : null,
    status_code: s.status.code,
    status_message: s.status.message ?? null,
    attributes: s.attributes,
    events: s.events.length === 0 ? null : s.events.map((e) => ({ name: e.name, time_unix_nano: e.timeNs, attributes: e.attributes })),
    links: s.links === undefined || s.links.length === 0 ? null : s.links.map((l) => ({ trace_id: l.traceId, span_id: l.spanId, attributes: l.attributes })),
    resource: s.resource.attributes,
    service: s.service,
    scope_name: s.scope?.name ?? null,
    scope_version: s.scope?.version ?? null,
    format,
    file: t.file,
    chunk: t.chunk,
    seq,
    line: s.source.line,
  };
}

function metricRow(p: MetricPoint, t: RangeTarget, seq: number, point: number): object {
  return {
    name: p.name,
    unit: null,
    kind: p.kind,
    temporality: p.temporality,
    resource: p.resource.attributes,
    service: p.service,
    start_ns: p.startNs,
    end_ns: p.endNs,
    value: p.value,
    count: p.count,
    sum: p.sum,
    attributes: p.attributes,
    file: t.file,
    chunk: t.chunk,
    seq,
    point,
  };
}

function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
