/**
 * The reader: streams files line by line (split on `\n` over fs streams, never a whole file in
 * memory), recognises our console records, the Python SDK shape and OTLP/JSON requests, and hands
 * out normalised {@link SpanRecord}s.
 * @module
 */
import { createReadStream } from 'node:fs';
import type { SpanRecord } from '../span-record.js';
import { expandPaths } from './expand-paths.js';
import { emptyReadStats, MAX_MALFORMED_EXAMPLES } from './read-stats.js';
import type { ReadStats } from './read-stats.js';
import { forEachLine } from './lines.js';
import type { MetricPoint } from './metric-points.js';
import { RecordScanner } from './record-scanner.js';
import { handleRecord } from './records.js';
import type { RecordHandlers } from './records.js';
import { ResourceCache } from './resource-cache.js';

/** Progress of a read, in bytes over every file. */
export interface ReadProgress {
  bytesRead: number;
  totalBytes: number;
  file: string;
}

/** Options of {@link readSpans} and {@link forEachSpan}. */
export interface ReadOptions {
  /** Called about every 4 MiB read and once at the end of each file. */
  onProgress?: (progress: ReadProgress) => void;
  /** Receives the saturation metric points (see `metric-points.ts`); without it metric lines are skipped. */
  onMetric?: (point: MetricPoint) => void;
  /** Called after each line; when it returns a promise, reading waits for it (backpressure). */
  pause?: () => Promise<void> | undefined;
}

/** Spans, saturation metric points and counters of one read. */
export interface ReadResult {
  spans: SpanRecord[];
  metrics: MetricPoint[];
  stats: ReadStats;
}

const PROGRESS_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * Reads every span in `paths` (files, or directories searched recursively for `*.log`, `*.jsonl`,
 * `*.json`, `*.ndjson`). Garbage lines are counted, never thrown.
 * @throws TraceUserError `GYM_TRACE_PATH_NOT_FOUND` for a missing path.
 * @example
 * const { spans, stats } = await readSpans(['.gym/logs/run-1']);
 */
export async function readSpans(paths: readonly string[], options: ReadOptions = {}): Promise<ReadResult> {
  const spans: SpanRecord[] = [];
  const metrics: MetricPoint[] = [];
  const stats = await forEachSpan(paths, (s) => void spans.push(s), { onMetric: (p) => void metrics.push(p), ...options });
  return { spans, metrics, stats };
}

/** Streaming form of {@link readSpans}: calls `onSpan` per span instead of collecting them. */
export async function forEachSpan(paths: readonly string[], onSpan: (span: SpanRecord) => void, options: ReadOptions = {}): Promise<ReadStats> {
  const files = await expandPaths(paths);
  const stats = emptyReadStats();
  const resources = new ResourceCache();
  const totalBytes = files.reduce((n, f) => n + f.bytes, 0);
  let doneBytes = 0;
  for (const file of files) {
    stats.files++;
    const bytes = await readFile(file.path, stats, resources, onSpan, options, (b) => options.onProgress?.({ bytesRead: doneBytes + b, totalBytes, file: file.path }));
    doneBytes += bytes;
    stats.bytes += bytes;
    options.onProgress?.({ bytesRead: doneBytes, totalBytes, file: file.path });
  }
  return stats;
}

// Log lines (pino's JSON among them) far outnumber spans in a server's output: a substring test
// rules most of them out before JSON.parse. Every span shape names a span id or is an OTLP request;
// the lean shape's resource records are read too, as the lines after them need them.
// Only text that opens like a JSON object (`{"`) is ruled out, so broken records still parse, fail
// and are reported as malformed.
function mayHoldSpan(text: string): boolean {
  return !text.startsWith('{"') || text.includes('"span_id"') || text.includes('"resourceSpans"') || text.includes('"type":"resource"');
}

function mayHoldSpanOrMetric(text: string): boolean {
  return mayHoldSpan(text) || text.includes('"metric"');
}

async function readFile(file: string, stats: ReadStats, resources: ResourceCache, onSpan: (s: SpanRecord) => void, options: ReadOptions, progress: (bytes: number) => void): Promise<number> {
  const { onMetric, pause } = options;
  const malformed = (line: number, reason: string): void => {
    stats.malformedLines++;
    if (stats.malformedExamples.length < MAX_MALFORMED_EXAMPLES) stats.malformedExamples.push({ file, line, reason });
  };
  let recordLine = 0;
  const handlers: RecordHandlers = {
    span(s, format) {
      stats.spans++;
      stats.formats[format]++;
      onSpan(s);
    },
    malformed: (reason) => malformed(recordLine, reason),
    skipped: () => void stats.skippedLines++,
    ...(onMetric === undefined
      ? {}
      : {
          metric(points: MetricPoint[]) {
            stats.metricRecords++;
            for (const p of points) onMetric(p);
          },
        }),
  };
  const scanner = new RecordScanner({
    skipped: () => void stats.skippedLines++,
    malformed,
    mayBeRecord: onMetric === undefined ? mayHoldSpan : mayHoldSpanOrMetric,
    record(obj, line) {
      recordLine = line;
      handleRecord(obj, { file, line }, resources, handlers);
    },
  });
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  let lineNo = 0;
  let nextProgress = PROGRESS_EVERY_BYTES;
  await forEachLine(stream, (line) => {
    lineNo++;
    stats.linesRead++;
    scanner.push(line, lineNo);
    if (stream.bytesRead >= nextProgress) {
      nextProgress = stream.bytesRead + PROGRESS_EVERY_BYTES;
      progress(stream.bytesRead);
    }
    return pause?.();
  });
  scanner.end();
  return stream.bytesRead;
}
