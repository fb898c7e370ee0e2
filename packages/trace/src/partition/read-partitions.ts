/**
 * Reads partition files back into spans and metric points, with each span's source (file, line)
 * pointing at the input it came from, not at the partition.
 * @module
 */
import { createReadStream } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { fromConsoleSpan } from '../read/console-span.js';
import { forEachLine } from '../read/lines.js';
import { fromConsoleMetric } from '../read/metric-points.js';
import type { MetricPoint } from '../read/metric-points.js';
import { MAX_MALFORMED_EXAMPLES } from '../read/read-stats.js';
import type { ReadStats } from '../read/read-stats.js';
import type { SpanFormat } from '../read/records.js';
import { ResourceCache } from '../read/resource-cache.js';
import type { SpanRecord } from '../span-record.js';
import { rolloutShardOf, SOURCE_KEY } from './build-partitions.js';
import { CompactSpansWriter, readCompactSpans } from './compact-spans.js';
import type { PartitionIndex } from './partition-index.js';

const FORMAT_OF_TAG: Record<string, SpanFormat> = { c: 'console', p: 'python', o: 'otlp' };
const FORMAT_INDEX = { console: 0, python: 1, otlp: 2 } as const;

/** Suffix of a partition's compact spans file (`<i>.spans`). */
export const COMPACT_SUFFIX = '.spans';

/**
 * Reads partitions `which` of `index`; spans and malformed records are counted into `stats`. A
 * partition read before comes from its compact form (`compact-spans.ts`); one read for the first
 * time is read from its lines, and its compact form is written for the next command.
 */
export async function readPartitions(index: PartitionIndex, which: readonly number[], stats: ReadStats, onSpan: (s: SpanRecord) => void, resources = new ResourceCache()): Promise<void> {
  const pathOf = (file: number): string => index.givenPaths[file] ?? index.inputs[file]?.path ?? '?';
  const malformed = (file: number, line: number, reason: string): void => {
    stats.malformedLines++;
    if (stats.malformedExamples.length < MAX_MALFORMED_EXAMPLES) stats.malformedExamples.push({ file: pathOf(file), line, reason });
  };
  for (const p of which) {
    const compactPath = join(index.dir, `${p}${COMPACT_SUFFIX}`);
    const compact = await readFile(compactPath).then(
      (bytes) => readCompactSpans(bytes, pathOf, resources, onSpan),
      () => null,
    );
    if (compact !== null) {
      stats.spans += compact.spans;
      stats.formats.console += compact.formats.console;
      stats.formats.python += compact.formats.python;
      stats.formats.otlp += compact.formats.otlp;
      for (const m of compact.malformed) malformed(m.file, m.line, m.reason);
      continue;
    }
    // a temporary index is removed after this command: no one would read the compact form
    const writer = index.temporary ? null : new CompactSpansWriter();
    await forEachRecord(join(index.dir, `${p}.part`), (obj, file, line, tag) => {
      const format = FORMAT_OF_TAG[tag];
      const s = format === undefined ? 'invalid JSON' : fromConsoleSpan(obj, { file: pathOf(file), line }, resources);
      if (typeof s === 'string') {
        malformed(file, line, s);
        writer?.malformed(file, line, s);
        return;
      }
      stats.spans++;
      stats.formats[format!]++;
      writer?.add(s, file, line, FORMAT_INDEX[format!]);
      onSpan(s);
    });
    if (writer !== null) await writeAtomically(compactPath, writer.bytes());
  }
}

// Written under a name of its own and renamed into place: a command reading the same index at the
// same time sees the whole file or none. A failed write (a full disk, a read-only index) only
// means the next command reads the lines again.
async function writeAtomically(path: string, bytes: Buffer): Promise<void> {
  const temp = `${path}.${process.pid}-${threadId}.tmp`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, path);
  } catch {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/** The saturation metric points of the run. */
export async function readIndexMetrics(index: PartitionIndex, resources = new ResourceCache()): Promise<MetricPoint[]> {
  const points: MetricPoint[] = [];
  await forEachRecord(join(index.dir, 'metrics.records'), (obj) => {
    for (const p of fromConsoleMetric(obj, resources)) points.push(p);
  });
  return points;
}

/** Ids of the roots of traces split over several partitions (their children sit elsewhere). */
export async function readSplitRoots(index: PartitionIndex): Promise<Set<string>> {
  const text = await readFile(join(index.dir, 'split-roots.ids'), 'utf8');
  return new Set(text.split('\n').filter((l) => l.length > 0));
}

/** The partitions holding rollout `id` (several when runs with the same rollout ids are read together). */
export async function partitionsOfRollout(index: PartitionIndex, id: string): Promise<number[]> {
  const text = await readFile(join(index.dir, `rollouts-${rolloutShardOf(id)}.idx`), 'utf8');
  const found = new Set<number>();
  const prefix = id + '\t';
  for (const line of text.split('\n')) if (line.startsWith(prefix)) found.add(Number(line.slice(prefix.length)));
  return [...found].sort((a, b) => a - b);
}

// A record the split pass wrote but that does not parse (a console line cut mid-way that still
// ended in `}`) comes back with the tag `?`: counted as malformed where it was read.
async function forEachRecord(path: string, onRecord: (obj: Record<string, unknown>, file: number, line: number, tag: string) => void): Promise<void> {
  await forEachLine(createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 }), (text) => {
    if (text.length === 0) return;
    let obj: Record<string, unknown>;
    try {
      obj = JSON.parse(text) as Record<string, unknown>;
    } catch {
      const m = /^\{"_gym_source":\[(\d+),(\d+),/.exec(text);
      if (m !== null) onRecord({}, Number(m[1]), Number(m[2]), '?');
      return;
    }
    const src = obj[SOURCE_KEY] as [number, number, string] | undefined;
    if (src !== undefined) onRecord(obj, src[0], src[1], src[2]);
  });
}
