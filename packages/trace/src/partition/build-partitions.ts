/**
 * Splits a run's spans into partition files that each read and assemble on their own, in
 * bounded memory: a first pass reads only the ids of every span and routes them (`span-links.ts`:
 * whole traces, or each rollout's subtree of a large `gym.job` trace); a second pass writes each
 * span to its partition. Also written: the run's metric records, the ids of split traces' roots,
 * and where each rollout is (`rollouts-<n>.idx`, so `show <rollout>` reads one partition).
 *
 * Our console span lines are routed without being parsed or decoded (their ids read as numbers
 * where the exporter writes them, or found by byte search) and copied as they are; other records
 * (the Python SDK's shape, OTLP/JSON) are parsed and re-written as console records.
 * @module
 */
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { InputFile } from '../read/expand-paths.js';
import { emptyReadStats, MAX_MALFORMED_EXAMPLES } from '../read/read-stats.js';
import type { ReadStats } from '../read/read-stats.js';
import { mayHoldSpanOrMetric } from '../read/read-spans.js';
import { RecordScanner } from '../read/record-scanner.js';
import { handleRecord } from '../read/records.js';
import type { RecordHandlers, SpanFormat } from '../read/records.js';
import { ResourceCache } from '../read/resource-cache.js';
import { ATTR, SPAN } from '../span-record.js';
import { SpanLinks } from './span-links.js';
import type { SpanRouting } from './span-links.js';
import { forEachRawLine, RAW_CHUNK_BYTES } from './raw-lines.js';
import { WriteQueue } from './write-queue.js';
import { cannotBeRecord, consoleSpanStartIn, fixedSpanLayout, keysOfConsoleSpanIn, toConsoleRecord } from './span-line.js';
import type { FixedSpanLayout, SpanKeys } from './span-line.js';

/**
 * Format tags of partition lines (see {@link partitionLine}). A resource record (which the lean
 * console lines after it in its file are joined to) is copied to every partition and to the
 * metric records, ahead of the lines that join it.
 */
export const FORMAT_TAG: Record<SpanFormat | 'metric' | 'resource', string> = { console: 'c', python: 'p', otlp: 'o', metric: 'm', resource: 'r' };

/** Key of the source of a record in a partition line: `[file index, line, format tag]`. */
export const SOURCE_KEY = '_gym_source';

/**
 * One line of a partition file: the record's JSON with its source added as a first key, so the
 * files stay JSON lines that DuckDB reads directly (`gym trace sql`).
 */
export function partitionLine(file: number, line: number, tag: string, recordJson: string): string {
  return `{"${SOURCE_KEY}":[${file},${line},"${tag}"],${recordJson.slice(1)}\n`;
}

/** Shards of the rollout index. */
export const ROLLOUT_SHARDS = 64;

/** How a run is split. */
export interface PartitionLayout {
  partitions: number;
  /** A trace with more spans than this is split into the subtrees under its root. */
  largeTraceSpans: number;
}

/** What the split wrote and saw. */
export interface PartitionBuild {
  /** Bytes written per partition file (`<i>.part`). */
  partitionBytes: number[];
  /** Lines, skipped lines, metric records and malformed records seen (spans are counted on reading). */
  stats: ReadStats;
}

const FLUSH_BYTES = 64 * 1024;

/** The two passes of a build saw different spans (the logs were being written). */
export class InputChangedError extends Error {
  constructor() {
    super('the telemetry files changed while they were indexed');
    this.name = new.target.name;
  }
}

/** Shard of the rollout index holding rollout `id` (FNV-1a: the same on every run and machine). */
export function rolloutShardOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % ROLLOUT_SHARDS;
}

/**
 * Writes `<dir>/<i>.part` for i < `partitions`, `metrics.records`, `split-roots.ids` and the rollout
 * index. Throws when the input changed between the two passes (the caller builds again).
 */
export async function buildPartitions(files: readonly InputFile[], dir: string, layout: PartitionLayout): Promise<PartitionBuild> {
  const { partitions, largeTraceSpans } = layout;
  const { partitionOf, splitRoots, count } = await routeSpans(files, partitions, largeTraceSpans);
  const queue = new WriteQueue(FLUSH_BYTES);
  const out = Array.from({ length: partitions }, (_, i) => new BufferedFile(join(dir, `${i}.part`), queue));
  const rollouts = Array.from({ length: ROLLOUT_SHARDS }, (_, i) => new BufferedFile(join(dir, `rollouts-${i}.idx`), queue));
  const metrics = new BufferedFile(join(dir, 'metrics.records'), queue);
  const stats = emptyReadStats();
  let i = 0;
  const next = (): number => {
    if (i >= count) throw new InputChangedError();
    return partitionOf[i++]!;
  };
  const indexRollout = (id: string, p: number): void => rollouts[rolloutShardOf(id)]!.write(`${id}\t${p}\n`);
  try {
    await scanSpans(files, stats, {
      fixed(buf, at, file, line, start, end) {
        const p = next();
        out[p]!.writeSourced(file, line, FORMAT_TAG.console, buf, start, end);
        if (at.rolloutFrom >= 0) indexRollout(buf.toString('utf8', at.rolloutFrom, at.rolloutTo), p);
      },
      span(keys, line) {
        const p = next();
        out[p]!.write(line());
        if (keys.rolloutId !== null) indexRollout(keys.rolloutId, p);
      },
      metric: (line) => metrics.write(line),
      resource(line) {
        for (const file of out) file.write(line);
        metrics.write(line);
      },
      ready: () => queue.ready(),
    });
  } finally {
    await closeAll([...out, ...rollouts, metrics], queue);
  }
  if (i !== count) throw new InputChangedError();
  const roots = new BufferedFile(join(dir, 'split-roots.ids'), queue);
  for (const id of splitRoots) roots.write(id + '\n');
  await closeAll([roots], queue);
  return { partitionBytes: out.map((f) => f.bytes), stats };
}

// The first pass: ids only. Its arrays are dropped on return, before the second pass writes.
async function routeSpans(files: readonly InputFile[], partitions: number, largeTraceSpans: number): Promise<SpanRouting & { count: number }> {
  const links = new SpanLinks();
  await scanSpans(files, emptyReadStats(), {
    fixed: (buf, at) => links.addHexBytes(buf, at.traceAt, at.spanAt, at.parentAt),
    span: (keys) => links.add(keys.traceId, keys.spanId, keys.parentSpanId),
    metric: null,
    resource: null,
    ready: () => undefined,
  });
  return { ...links.route(partitions, largeTraceSpans), count: links.count };
}

/** What {@link scanSpans} finds, in the order of the files. */
interface SpanSink {
  /**
   * One of our console span lines as the exporter lays it out: line `line` of file `file`, the
   * bytes of `buf` from `start` to `end`, its keys where `at` says (both valid during the call only).
   */
  fixed(buf: Buffer, at: Readonly<FixedSpanLayout>, file: number, line: number, start: number, end: number): void;
  /** Any other span: its keys and (lazily) its partition line. */
  span(keys: SpanKeys, line: () => string | Buffer): void;
  /** A metric record's partition line; null: metric records are not wanted. */
  metric: ((line: string) => void) | null;
  /** A resource record's partition line; null: not wanted. */
  resource: ((line: string) => void) | null;
  /** Awaited before each read: the sink's writes may hold the scan back. */
  ready: () => Promise<void> | undefined;
}

/** Hands every span of `files` to `sink` in a fixed order, and metric records. Counts into `stats`. */
async function scanSpans(files: readonly InputFile[], stats: ReadStats, sink: SpanSink): Promise<void> {
  const resources = new ResourceCache();
  for (let fi = 0; fi < files.length; fi++) {
    const file = files[fi]!.path;
    stats.files++;
    let recordLine = 0;
    const malformed = (line: number, reason: string): void => {
      stats.malformedLines++;
      if (stats.malformedExamples.length < MAX_MALFORMED_EXAMPLES) stats.malformedExamples.push({ file, line, reason });
    };
    const handlers: RecordHandlers = {
      span(s, format) {
        const rollout = s.name === SPAN.ROLLOUT ? s.attributes[ATTR.ROLLOUT_ID] : undefined;
        const keys = { traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId, rolloutId: typeof rollout === 'string' ? rollout : null };
        sink.span(keys, () => partitionLine(fi, recordLine, FORMAT_TAG[format], JSON.stringify(toConsoleRecord(s))));
      },
      malformed: (reason) => malformed(recordLine, reason),
      skipped: () => void stats.skippedLines++,
      metric(_points, obj) {
        stats.metricRecords++;
        sink.metric?.(partitionLine(fi, recordLine, FORMAT_TAG.metric, JSON.stringify(obj)));
      },
      resource(obj) {
        sink.resource?.(partitionLine(fi, recordLine, FORMAT_TAG.resource, JSON.stringify(obj)));
      },
    };
    const scanner = new RecordScanner({
      skipped: () => void stats.skippedLines++,
      malformed,
      mayBeRecord: mayHoldSpanOrMetric,
      record(obj, line) {
        recordLine = line;
        handleRecord(obj, { file, line }, resources, handlers);
      },
    });
    if (files[fi]!.bytes === 0) continue;
    let lineNo = 0;
    // up to the size the file had when the build started (see `openIndex`); lines stay bytes
    // unless they may be a record that is not one of our span lines
    stats.bytes += await forEachRawLine(
      file,
      files[fi]!.bytes,
      (buf, start, end) => {
        lineNo++;
        stats.linesRead++;
        if (end > start && buf[end - 1] === 13 /* \r */) end--;
        if (!scanner.inRecord) {
          const at = fixedSpanLayout(buf, start, end);
          if (at !== null) return sink.fixed(buf, at, fi, lineNo, start, end);
          const line = buf.subarray(start, end);
          const from = consoleSpanStartIn(line);
          const keys = from < 0 ? null : keysOfConsoleSpanIn(line, from);
          if (keys !== null) {
            const n = lineNo;
            return sink.span(keys, () => partitionLineOf(fi, n, FORMAT_TAG.console, line, from, line.length));
          }
          if (cannotBeRecord(line)) return void stats.skippedLines++;
        }
        scanner.push(buf.toString('utf8', start, end), lineNo);
      },
      chunkBytes,
      sink.ready,
    );
    scanner.end();
  }
}

/** Size of the reads of the build (small in tests, to cut lines at chunk ends). */
let chunkBytes = RAW_CHUNK_BYTES;

/** For tests: reads of `bytes` bytes (default {@link RAW_CHUNK_BYTES}). */
export function setBuildChunkBytes(bytes = RAW_CHUNK_BYTES): void {
  chunkBytes = bytes;
}

/** The size of the build's reads (handed to a build thread, so that tests reach it there too). */
export function buildChunkBytes(): number {
  return chunkBytes;
}

/** A partition line holding the bytes of a console record (`bytes` from `at` to `end`), copied as they are. */
function partitionLineOf(file: number, line: number, tag: string, bytes: Buffer, at: number, end: number): Buffer {
  const head = `{"${SOURCE_KEY}":[${file},${line},"${tag}"],`;
  const out = Buffer.allocUnsafe(head.length + end - at);
  out.write(head, 0, 'latin1');
  bytes.copy(out, head.length, at + 1, end);
  out[out.length - 1] = 10; // \n
  return out;
}

const SOURCED_HEAD = Buffer.from(`{"${SOURCE_KEY}":[`);

// the decimal digits of a non-negative integer, written at `at`; returns the offset after them
function writeDigits(buf: Buffer, at: number, n: number): number {
  let digits = 1;
  for (let m = n; m >= 10; m = Math.floor(m / 10)) digits++;
  for (let k = at + digits - 1; k >= at; k--, n = Math.floor(n / 10)) buf[k] = 48 + (n % 10);
  return at + digits;
}

// Hundreds of partitions are written at once: each keeps a small buffer and hands it, full, to
// the write queue.
class BufferedFile {
  #fd: number;
  #queue: WriteQueue;
  #buf: Buffer | null = null;
  #used = 0;
  /** Bytes handed to the queue (the offset of the next write). */
  bytes = 0;

  constructor(path: string, queue: WriteQueue) {
    this.#fd = openSync(path, 'w');
    this.#queue = queue;
  }

  write(data: string | Buffer): void {
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (this.#used + bytes > FLUSH_BYTES) this.flush();
    if (bytes > FLUSH_BYTES) {
      const whole = typeof data === 'string' ? Buffer.from(data) : data;
      this.#queue.write(this.#fd, whole, whole.length, this.bytes);
      this.bytes += whole.length;
      return;
    }
    // taken on first use: most of the rollout index's shards of a small run stay empty
    this.#buf ??= this.#queue.buffer();
    this.#used += typeof data === 'string' ? this.#buf.write(data, this.#used) : data.copy(this.#buf, this.#used);
  }

  /**
   * Writes {@link partitionLineOf}`(file, line, tag, bytes, start, end)` straight into the buffer:
   * no Buffer or string per line on the build's main path.
   */
  writeSourced(file: number, line: number, tag: string, bytes: Buffer, start: number, end: number): void {
    // the head's numbers are at most 16 digits each (safe integers)
    const most = SOURCED_HEAD.length + 40 + tag.length + end - start;
    if (most > FLUSH_BYTES) return this.write(partitionLineOf(file, line, tag, bytes, start, end));
    if (this.#used + most > FLUSH_BYTES) this.flush();
    const buf = (this.#buf ??= this.#queue.buffer());
    let at = this.#used + SOURCED_HEAD.copy(buf, this.#used);
    at = writeDigits(buf, at, file);
    buf[at++] = 44; // ,
    at = writeDigits(buf, at, line);
    buf[at++] = 44;
    buf[at++] = 34; // "
    at += buf.write(tag, at, 'latin1');
    buf[at++] = 34;
    buf[at++] = 93; // ]
    buf[at++] = 44;
    at += bytes.copy(buf, at, start + 1, end);
    buf[at++] = 10; // \n
    this.#used = at;
  }

  /** Hands what is buffered to the queue. */
  flush(): void {
    if (this.#used === 0) return;
    this.#queue.write(this.#fd, this.#buf!, this.#used, this.bytes);
    this.bytes += this.#used;
    this.#buf = null;
    this.#used = 0;
  }

  /** Closes the file: call once the queue has settled. */
  close(): void {
    if (this.#fd < 0) return;
    closeSync(this.#fd);
    this.#fd = -1;
  }
}

/** Flushes `files`, waits for their writes, closes them; throws when a write failed. */
async function closeAll(files: readonly BufferedFile[], queue: WriteQueue): Promise<void> {
  for (const f of files) f.flush();
  await queue.settled();
  for (const f of files) f.close();
  if (queue.error !== null) throw queue.error;
}
