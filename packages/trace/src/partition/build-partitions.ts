/**
 * The one pass over a run's files that splits its spans into partition files: every span of a
 * rollout (`nemo.gym.rollout.id`) lands in the same partition, a span outside any rollout lands
 * with its trace. A partition then reads and assembles on its own, in bounded memory, and
 * `show <rollout>` reads one partition instead of the whole run.
 *
 * Our console span lines are routed without being parsed (their ids found by substring search);
 * other records (the Python SDK's shape, OTLP/JSON) are parsed and re-written as console records.
 * @module
 */
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { forEachLine } from '../read/lines.js';
import type { InputFile } from '../read/expand-paths.js';
import { emptyReadStats, MAX_MALFORMED_EXAMPLES } from '../read/read-stats.js';
import type { ReadStats } from '../read/read-stats.js';
import { RecordScanner } from '../read/record-scanner.js';
import { handleRecord } from '../read/records.js';
import type { RecordHandlers, SpanFormat } from '../read/records.js';
import { ResourceCache } from '../read/resource-cache.js';
import { ATTR } from '../span-record.js';
import { consoleSpanStart, keysOfConsoleSpan, toConsoleRecord } from './span-line.js';

/** Spans outside rollouts whose ids are remembered (their children may sit in other partitions). */
export const MAX_SHARED_IDS = 1_000_000;

/** Format tags of partition lines: `<file index>\t<line>\t<tag>\t<record JSON>`. */
export const FORMAT_TAG: Record<SpanFormat | 'metric', string> = { console: 'c', python: 'p', otlp: 'o', metric: 'm' };

/** What the split pass wrote and saw. */
export interface PartitionBuild {
  /** Bytes written per partition file (`<i>.part`). */
  partitionBytes: number[];
  /** Lines, skipped lines, metric records and malformed records seen (spans are counted on reading). */
  stats: ReadStats;
  /** Ids of spans outside any rollout (`shared.ids`); false when there were more than {@link MAX_SHARED_IDS}. */
  sharedComplete: boolean;
}

const FLUSH_CHARS = 64 * 1024;

/** Partition of a routing key (FNV-1a, so it is the same on every run and machine). */
export function partitionOf(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}

/** Routing key of a span: its rollout when it has one, else its trace. */
export function routingKey(rolloutId: string | null, traceId: string): string {
  return rolloutId !== null ? `r:${rolloutId}` : `t:${traceId}`;
}

/** Writes `<dir>/<i>.part` for i < `partitions`, `<dir>/metrics.part` and `<dir>/shared.ids`. */
export async function buildPartitions(files: readonly InputFile[], dir: string, partitions: number): Promise<PartitionBuild> {
  const out = Array.from({ length: partitions }, (_, i) => new BufferedFile(join(dir, `${i}.part`)));
  const metrics = new BufferedFile(join(dir, 'metrics.part'));
  const shared = new Set<string>();
  let sharedComplete = true;
  const stats = emptyReadStats();
  const resources = new ResourceCache();
  const route = (keys: { traceId: string; spanId: string; rolloutId: string | null }, line: string): void => {
    if (keys.rolloutId === null && sharedComplete) {
      shared.add(keys.spanId);
      if (shared.size > MAX_SHARED_IDS) sharedComplete = false;
    }
    out[partitionOf(routingKey(keys.rolloutId, keys.traceId), partitions)]!.write(line);
  };
  try {
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
          const rollout = s.attributes[ATTR.rolloutId];
          route({ traceId: s.traceId, spanId: s.spanId, rolloutId: typeof rollout === 'string' ? rollout : null }, `${fi}\t${recordLine}\t${FORMAT_TAG[format]}\t${JSON.stringify(toConsoleRecord(s))}\n`);
        },
        malformed: (reason) => malformed(recordLine, reason),
        skipped: () => void stats.skippedLines++,
        metric(_points, obj) {
          stats.metricRecords++;
          metrics.write(`${fi}\t${recordLine}\t${FORMAT_TAG.metric}\t${JSON.stringify(obj)}\n`);
        },
      };
      const scanner = new RecordScanner({
        skipped: () => void stats.skippedLines++,
        malformed,
        mayBeRecord: (t) => !t.startsWith('{"') || t.includes('"span_id"') || t.includes('"resourceSpans"') || t.includes('"metric"'),
        record(obj, line) {
          recordLine = line;
          handleRecord(obj, { file, line }, resources, handlers);
        },
      });
      const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
      let lineNo = 0;
      await forEachLine(stream, (line) => {
        lineNo++;
        stats.linesRead++;
        if (!scanner.inRecord) {
          const at = consoleSpanStart(line);
          const text = at < 0 ? null : at === 0 ? line : line.slice(at);
          const keys = text === null ? null : keysOfConsoleSpan(text);
          if (keys !== null) return route(keys, `${fi}\t${lineNo}\t${FORMAT_TAG.console}\t${text}\n`);
        }
        scanner.push(line, lineNo);
      });
      scanner.end();
      stats.bytes += stream.bytesRead;
    }
  } finally {
    for (const f of out) f.close();
    metrics.close();
  }
  const ids = new BufferedFile(join(dir, 'shared.ids'));
  if (sharedComplete) for (const id of shared) ids.write(id + '\n');
  ids.close();
  return { partitionBytes: out.map((f) => f.bytes), stats, sharedComplete };
}

// Hundreds of partitions are written at once: each keeps a small buffer and writes it whole.
class BufferedFile {
  #fd: number;
  #parts: string[] = [];
  #chars = 0;
  bytes = 0;

  constructor(path: string) {
    this.#fd = openSync(path, 'w');
  }

  write(text: string): void {
    this.#parts.push(text);
    this.#chars += text.length;
    if (this.#chars >= FLUSH_CHARS) this.flush();
  }

  flush(): void {
    if (this.#parts.length === 0) return;
    this.bytes += writeSync(this.#fd, this.#parts.join(''));
    this.#parts = [];
    this.#chars = 0;
  }

  close(): void {
    if (this.#fd < 0) return;
    this.flush();
    closeSync(this.#fd);
    this.#fd = -1;
  }
}
